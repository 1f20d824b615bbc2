import Testing

@testable import RuleEngine

/// The reverse index keeps each input's readers in a small array that becomes a set past its
/// limit; readers come and go exactly either way.
@Suite struct EvaluationStoreTests {
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
}
