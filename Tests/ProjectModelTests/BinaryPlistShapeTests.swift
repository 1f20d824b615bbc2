import ProjectModel
import TestSupport
import Testing

/// Shared references in a binary plist are counted from its object table before Foundation parses
/// it (issue 10, item 4; found again by `make fuzz` at 10 s per input under ASan).
@Suite struct BinaryPlistShapeTests {
    @Test func aFileThatExpandsPastTheBudgetIsRefusedWithoutWalkingIt() {
        // 10^12 values from 190 bytes: walking them would never end.
        guard case .failure(let error) = PropertyListReader.parse(BinaryPlistBuilder.sharedReferenceBomb(levels: 12)) else {
            Issue.record("a 10^12-value plist was read")
            return
        }
        #expect(error.description.contains("expands to more than 1000000 values"))
    }

    @Test func sharedReferencesWithinTheBudgetAreRead() throws {
        let (value, format) = try PropertyListReader.parse(BinaryPlistBuilder.sharedReferenceBomb(levels: 4)).get()
        #expect(format == .binary)
        #expect(value["UIKey"]?.array?.count == 10, "10,000 leaves in four levels are fine")
    }

    /// Found by `make fuzz`: a 337-byte Info.plist holding a set crashed `check` and the daemon
    /// (SIGSEGV in Foundation's NSSet bridging). Sets and keyed-archiver UIDs are refused first.
    @Test func aSetIsRefusedBeforeFoundationSeesIt() {
        guard case .failure(let error) = PropertyListReader.parse(BinaryPlistBuilder.setOfDictionaries()) else {
            Issue.record("a plist holding a set was read")
            return
        }
        #expect(error.description.contains("holds a set"))
    }

    @Test func aBrokenObjectTableIsRefused() {
        var bytes = BinaryPlistBuilder.sharedReferenceBomb(levels: 2)
        bytes[bytes.count - 1] = 0xF0  // the offset table now starts past the end
        guard case .failure(let error) = PropertyListReader.parse(bytes) else {
            Issue.record("a broken binary plist was read")
            return
        }
        #expect(error.description.contains("broken binary structure"))
    }

    @Test func anArrayThatHoldsItselfIsRefused() {
        guard case .failure = PropertyListReader.parse(BinaryPlistBuilder.cycle()) else {
            Issue.record("a cyclic plist was read")
            return
        }
    }
}
