/// Which evaluation (rule × subject) ran, what it read and what it found; and, reversed, which
/// evaluations read each input, so a change re-runs exactly those. Evaluations that read only their
/// own file and found nothing are not stored (the engine re-runs a changed file's subject anyway).
struct EvaluationStore {
    struct Key: Hashable, Sendable {
        let rule: String  // LoadedRule.source
        let subject: Subject
    }

    struct Record: Sendable {
        /// Distinct inputs, an exact-size array (a `Set` of three cost twice the bytes).
        var inputs: [EvaluationInput]
        var diagnostics: [Diagnostic]
    }

    /// The evaluations that read one input: most inputs have a few readers (a set's evaluations),
    /// kept in a small array; past 16 a `Set`, so dropping one of thousands is not a scan.
    enum Readers: Sendable {
        case few([Key])
        case many(Set<Key>)

        static let limit = 16

        var keys: [Key] {
            switch self {
            case .few(let a): a
            case .many(let s): Array(s)
            }
        }

        mutating func insert(_ key: Key) {
            switch self {
            case .few(var a):
                self = .few([])  // no second reference while `a` grows
                if !a.contains(key) { a.append(key) }
                self = a.count > Self.limit ? .many(Set(a)) : .few(a)
            case .many(var set):
                self = .few([])
                set.insert(key)
                self = .many(set)
            }
        }

        /// Removes a reader; true when none is left.
        mutating func remove(_ key: Key) -> Bool {
            switch self {
            case .few(var a):
                self = .few([])
                if let i = a.firstIndex(of: key) { a.remove(at: i) }
                self = .few(a)
                return a.isEmpty
            case .many(var set):
                self = .few([])
                set.remove(key)
                self = .many(set)
                return set.isEmpty
            }
        }
    }

    private(set) var records: [Key: Record] = [:]
    private var dependents: [EvaluationInput: Readers] = [:]

    var keys: Dictionary<Key, Record>.Keys { records.keys }
    var diagnostics: [Diagnostic] { records.values.flatMap(\.diagnostics) }

    func contains(_ key: Key) -> Bool { records[key] != nil }
    var isEmpty: Bool { records.isEmpty }

    /// What an evaluation's record keeps of its inputs: its own file (a file subject's), and every
    /// input except the files inside a folder it listed. A folder subject's own path is left out:
    /// it changes only when the folder comes or goes, which is a subject change that drops or
    /// re-runs its evaluations anyway (Engine.process, `subjects.changes`). A change to any file re-runs the readers of its folder's
    /// listing as well (Engine.process), so the listing stands for them: an app icon set's
    /// evaluation keeps one entry, not one per image (118k reverse-index entries at 100k files
    /// were a quarter of the daemon's heap).
    static func compacted(_ inputs: Set<EvaluationInput>, subject: Subject) -> Set<EvaluationInput> {
        var listed = Set<String>()
        for case .listing(let dir) in inputs { listed.insert(dir) }
        var kept =
            listed.isEmpty
            ? inputs
            : inputs.filter { input in
                guard case .file(let p) = input else { return true }
                return !listed.contains(RelativePath.parent(p))
            }
        if subject.kind.isDirectory {
            kept.remove(.file(subject.path))
        } else {
            kept.insert(.file(subject.path))
        }
        return kept
    }

    /// Every input some stored evaluation read.
    var inputs: Dictionary<EvaluationInput, Readers>.Keys { dependents.keys }

    /// The evaluations that read `input`.
    func readers(of input: EvaluationInput) -> [Key] { dependents[input]?.keys ?? [] }

    /// Forgets one evaluation; returns the diagnostics it had.
    mutating func drop(_ key: Key) -> [Diagnostic] {
        guard let record = records.removeValue(forKey: key) else { return [] }
        for input in record.inputs where dependents[input]?.remove(key) == true { dependents[input] = nil }
        return record.diagnostics
    }

    /// Forgets everything; returns every diagnostic stored.
    mutating func removeAll() -> [Diagnostic] {
        defer {
            records = [:]
            dependents = [:]
        }
        return diagnostics
    }

    mutating func store(_ key: Key, _ record: Record) {
        // A record stored over another forgets the old one's inputs (the engine drops first, so
        // this only keeps the index exact for any other caller).
        if let old = records.updateValue(record, forKey: key) {
            for input in old.inputs where dependents[input]?.remove(key) == true { dependents[input] = nil }
        }
        for input in record.inputs { dependents[input, default: .few([])].insert(key) }
    }
}

/// The diagnostics one engine call dropped and stored; the delta is their multiset difference,
/// so a change costs what it touches, never the size of the store.
struct DeltaAccumulator {
    private var dropped: [Diagnostic] = []
    private var stored: [Diagnostic] = []

    mutating func drop(_ diagnostics: [Diagnostic]) { dropped += diagnostics }
    mutating func store(_ diagnostics: [Diagnostic]) { stored += diagnostics }

    /// Starts a call: the engine's own scan diagnostics count as dropped, and are stored again at
    /// the end if still current.
    mutating func begin(scan: [Diagnostic]) {
        dropped = scan
        stored = []
    }

    mutating func end(scan: [Diagnostic], evaluationsRun: Int) -> DiagnosticDelta {
        stored += scan
        var delta = Self.difference(dropped, stored)
        delta.evaluationsRun = evaluationsRun
        dropped = []
        stored = []
        return delta
    }

    static func difference(_ before: [Diagnostic], _ after: [Diagnostic]) -> DiagnosticDelta {
        var counts: [Diagnostic: Int] = [:]
        for d in before { counts[d, default: 0] += 1 }
        var delta = DiagnosticDelta()
        for d in after {
            if let c = counts[d], c > 0 { counts[d] = c - 1 } else { delta.added.append(d) }
        }
        for (d, c) in counts where c > 0 { delta.removed += Array(repeating: d, count: c) }
        delta.removed.sort(by: Diagnostic.stableOrder)
        return delta
    }
}
