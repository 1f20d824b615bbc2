import RuleKit
import Testing

@testable import RuleEngine

/// The reverse index keeps each input's readers in a small array that becomes a set past its
/// limit; readers come and go exactly either way.
@Suite struct EvaluationStoreTests {
    /// What a record keeps of its inputs, the image's short way included: its own file always,
    /// a folder subject's own path never, and no file of a folder it listed.
    @Test func compactedInputs() {
        let image = Subject(.image, "S.appiconset/a.png")
        let set = Subject(.assetSet, "S.appiconset")
        let cases: [(Set<EvaluationInput>, Subject, Set<EvaluationInput>)] = [
            ([.file(image.path)], image, [.file(image.path)]),
            ([], image, [.file(image.path)]),
            ([.file(image.path), .file("Info.plist")], image, [.file(image.path), .file("Info.plist")]),
            (
                [.file(image.path), .listing("S.appiconset"), .file("S.appiconset/b.png")], image,
                [.file(image.path), .listing("S.appiconset")]
            ),
            (
                [.file("S.appiconset/b.png"), .file("Info.plist")], image,
                [.file(image.path), .file("S.appiconset/b.png"), .file("Info.plist")]
            ),
            ([.file(set.path), .listing(set.path), .file("S.appiconset/Contents.json")], set, [.listing(set.path)]),
            (
                [.file("S.appiconset/Contents.json"), .subjects(.image, project: "")], set,
                [.file("S.appiconset/Contents.json"), .subjects(.image, project: "")]
            ),
        ]
        for (inputs, subject, kept) in cases {
            #expect(EvaluationStore.compacted(inputs, subject: subject) == kept, "\(inputs) of \(subject.path)")
        }
    }

    static func key(_ i: Int) -> EvaluationStore.Key { .init(rule: "rules/r.yaml#\(i % 3)", subject: Subject(.image, "A/\(i).png")) }

    @Test(arguments: [3, EvaluationStore.Readers.limit + 1, 200])
    func readersOfOneInputComeAndGo(count: Int) {
        var store = EvaluationStore()
        let shared = EvaluationInput.subjects(.image, project: "A")
        for i in 0..<count {
            store.store(Self.key(i), .init(inputs: [shared, .file("A/\(i).png")], diagnostics: []))
        }
        #expect(Set(store.readers(of: shared)) == Set((0..<count).map(Self.key)))
        #expect(store.readers(of: .file("A/1.png")) == [Self.key(1)])
        // Storing the same evaluation again keeps one reader.
        store.store(Self.key(0), .init(inputs: [shared], diagnostics: []))
        #expect(store.readers(of: shared).count == count)
        for i in stride(from: 0, to: count, by: 2) { _ = store.drop(Self.key(i)) }
        #expect(Set(store.readers(of: shared)) == Set(stride(from: 1, to: count, by: 2).map(Self.key)))
        for i in stride(from: 1, to: count, by: 2) { _ = store.drop(Self.key(i)) }
        #expect(store.readers(of: shared).isEmpty)
        #expect(store.inputs.isEmpty, "an input nobody reads is forgotten")
    }

    /// Records and the reverse index hold ids: each rule name and path is interned once however
    /// many records read it, and released with the last record that refers to it.
    @Test func eachPathIsHeldOnceAndFreedWithItsLastReader() {
        #expect(MemoryLayout<EvaluationStore.KeyID>.stride == 12)
        #expect(MemoryLayout<EvaluationStore.InputID>.stride == 8)
        var store = EvaluationStore()
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let plist = "App/Info.plist"
        let missing = "App/Base.lproj/LaunchScreen.storyboard"  // read, not there: still one id
        for i in 0..<50 {
            let key = EvaluationStore.Key(rule: "rules/icons.yaml#sizes", subject: Subject(.image, "\(set)/\(i).png"))
            store.store(
                key, .init(inputs: [.listing(set), .file(plist), .file(missing), .subjects(.image, project: "App")], diagnostics: []))
        }
        // One rule name, 50 subject paths, the set, the plist, the missing file and the project.
        #expect(store.strings.count == 1 + 50 + 4)
        #expect(store.readers(of: .file(missing)).count == 50)
        #expect(store.readers(of: .listing(plist)).isEmpty, "a path read as a file is not a listing read")
        #expect(store.readers(of: .subjects(.assetSet, project: "App")).isEmpty, "the kind is part of the input")
        for i in 0..<49 { _ = store.drop(.init(rule: "rules/icons.yaml#sizes", subject: Subject(.image, "\(set)/\(i).png"))) }
        #expect(store.strings.count == 1 + 1 + 4)
        let last = EvaluationStore.Key(rule: "rules/icons.yaml#sizes", subject: Subject(.image, "\(set)/49.png"))
        #expect(store.keys == [last])
        #expect(Set(store.inputs) == [.listing(set), .file(plist), .file(missing), .subjects(.image, project: "App")])
        // The same key under another kind or rule is another evaluation.
        #expect(!store.contains(.init(rule: "rules/icons.yaml#sizes", subject: Subject(.assetSet, "\(set)/49.png"))))
        #expect(!store.contains(.init(rule: "rules/icons.yaml#other", subject: last.subject)))
        _ = store.drop(last)
        #expect(store.strings.count == 0, "the last reader frees every string")
        #expect(store.inputs.isEmpty && store.isEmpty)
    }

    /// A record with no input, one (held inline) or several: each input has the record as its
    /// reader while it is stored, and dropping it frees every string.
    @Test(arguments: [0, 1, 2, 5])
    func aRecordsInputsComeAndGoWithIt(count: Int) {
        var store = EvaluationStore()
        let key = EvaluationStore.Key(rule: "r", subject: Subject(.assetSet, "S.imageset"))
        let inputs = (0..<count).map { EvaluationInput.file("S.imageset/\($0).png") }
        store.store(key, .init(inputs: inputs, diagnostics: []))
        #expect(Set(store.inputs) == Set(inputs))
        for input in inputs { #expect(store.readers(of: input) == [key]) }
        #expect(store.strings.count == 2 + count)
        _ = store.drop(key)
        #expect(store.strings.count == 0 && store.inputs.isEmpty && store.isEmpty)
    }

    /// A record stored over another (without a drop first) replaces it: the old inputs lose their
    /// reader and their strings, the ones both read keep one reader, and one drop frees it all.
    @Test func storingOverARecordForgetsItsOldInputs() {
        var store = EvaluationStore()
        let key = EvaluationStore.Key(rule: "r", subject: Subject(.assetSet, "S.imageset"))
        store.store(key, .init(inputs: [.listing("S.imageset"), .file("Old.plist")], diagnostics: []))
        store.store(key, .init(inputs: [.listing("S.imageset"), .file("New.plist")], diagnostics: []))
        #expect(store.count == 1)
        #expect(store.readers(of: .file("Old.plist")).isEmpty)
        #expect(store.readers(of: .file("New.plist")) == [key])
        #expect(store.readers(of: .listing("S.imageset")) == [key])
        #expect(store.strings.count == 3, "the rule, the set (subject and listing) and New.plist")
        _ = store.drop(key)
        #expect(store.strings.count == 0 && store.inputs.isEmpty && store.isEmpty)
    }

    /// Ids freed by dropped records are reused, so a daemon that keeps changing files does not grow.
    @Test func freedIDsAreReused() {
        var store = EvaluationStore()
        var peak = 0
        for round in 0..<100 {
            let key = EvaluationStore.Key(rule: "r", subject: Subject(.assetSet, "S\(round).imageset"))
            store.store(key, .init(inputs: [.listing(key.subject.path), .file("S\(round).imageset/Contents.json")], diagnostics: []))
            peak = max(peak, store.strings.capacity)
            _ = store.drop(key)
        }
        #expect(peak == 3, "ids are reused: \(peak) slots after 100 rounds")
    }

    @Test func kindOrdinalsRoundTrip() {
        for kind in SubjectKind.allCases { #expect(SubjectKind.byOrdinal[kind.ordinal] == kind) }
    }

    /// A rule's name is the rule set's own string: every root's store refers to it, none holds a
    /// copy (1,000 roots held 1,000 copies of each name, 1.0-1.4 MB). A path is still copied: the
    /// one passed in was built on a scan's worker thread (`StringTableTests`).
    @Test func ruleNamesAreSharedAndPathsCopied() {
        let rule = "builtin:icons/app-icon-set.yaml#icon.slot-size" + String(repeating: "-", count: 20)
        let path = "Module0/Assets.xcassets/Icon0.appiconset" + String(repeating: "/x", count: 10)
        var stores = [EvaluationStore(), EvaluationStore()]
        for i in stores.indices {
            stores[i].store(.init(rule: rule, subject: Subject(.assetSet, path)), .init(inputs: [.listing(path)], diagnostics: []))
        }
        for store in stores {
            let ruleID = store.strings.id(rule)
            let pathID = store.strings.id(path)
            #expect(
                ruleID.flatMap { StringTableTests.address(of: store.strings[$0]) } == StringTableTests.address(of: rule),
                "the rule set's name, not a copy")
            #expect(
                pathID.flatMap { StringTableTests.address(of: store.strings[$0]) } != StringTableTests.address(of: path),
                "a path of its own")
        }
    }
}
