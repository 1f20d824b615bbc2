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

    @Test func anArrayThatHoldsItselfIsRefused() {
        guard case .failure = PropertyListReader.parse(BinaryPlistBuilder.cycle()) else {
            Issue.record("a cyclic plist was read")
            return
        }
    }
}
