import Findings
import RuleKit
import SystemCalls

/// Which evaluation (rule × subject) ran, what it read and what it found; and, reversed, which
/// evaluations read each input, so a change re-runs exactly those. Evaluations that read only their
/// own file and found nothing are not stored (the engine re-runs a changed file's subject anyway).
///
/// Callers speak in paths (`Key`, `EvaluationInput`); the store keeps ids. Every path and rule name
/// a record refers to is interned once in a `StringTable`, so a record is its diagnostics plus a few
/// integers, and a reverse-index entry is 8 bytes pointing at 12-byte keys: no path is held twice,
/// whether it names a file, a folder listed or a path that does not exist.
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

    /// A key as stored: the rule's and the subject path's ids in `strings`.
    struct KeyID: Hashable, Sendable {
        let rule: StringTable.ID
        let path: StringTable.ID
        let kind: UInt8  // SubjectKind.ordinal
    }

    /// An input as stored: a path's id (for `.subjects`, the project's) and what was read there.
    struct InputID: Hashable, Sendable {
        let path: StringTable.ID
        let tag: UInt8  // 0 file, 1 listing, 2 subjects
        let kind: UInt8  // for `.subjects`: SubjectKind.ordinal
    }

    /// A record's inputs and findings. The first input is held inline: most records read one
    /// thing (an asset set's evaluation, its folder's listing), and an array of one was a heap
    /// block of its own for each of them (30,000 at 100k files).
    private struct Stored: Sendable {
        var first: InputID?
        var rest: [InputID] = []
        var diagnostics: [Diagnostic]

        mutating func append(_ input: InputID) {
            if first == nil { first = input } else { rest.append(input) }
        }

        func forEachInput(_ body: (InputID) -> Void) {
            guard let first else { return }
            body(first)
            for input in rest { body(input) }
        }
    }

    /// The evaluations that read one input: most inputs have a few readers (a set's evaluations),
    /// kept in a small array; past 16 a `Set`, so dropping one of thousands is not a scan.
    enum Readers: Sendable {
        case few([KeyID])
        case many(Set<KeyID>)

        static let limit = 16

        var keys: [KeyID] {
            switch self {
            case .few(let a): a
            case .many(let s): Array(s)
            }
        }

        mutating func insert(_ key: KeyID) {
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
        mutating func remove(_ key: KeyID) -> Bool {
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

    /// Every rule name and path the records refer to, each once; a record holds one use of its
    /// key's two strings and of each input's path.
    private(set) var strings = StringTable()
    private var records = SmallMap<KeyID, Stored>()
    private var dependents = SmallMap<InputID, Readers>()

    var count: Int { records.count }
    var isEmpty: Bool { records.isEmpty }

    /// Every stored evaluation's key.
    var keys: [Key] { records.keys.map(key) }
    var diagnostics: [Diagnostic] { records.values.flatMap(\.diagnostics) }

    func contains(_ key: Key) -> Bool { id(of: key).map { records[$0] != nil } ?? false }

    /// What an evaluation's record keeps of its inputs: its own file (a file subject's), and every
    /// input except the files inside a folder it listed. A folder subject's own path is left out:
    /// it changes only when the folder comes or goes, which is a subject change that drops or
    /// re-runs its evaluations anyway (Engine.process, `subjects.changes`). A change to any file re-runs the readers of its folder's
    /// listing as well (Engine.process), so the listing stands for them: an app icon set's
    /// evaluation keeps one entry, not one per image (118k reverse-index entries at 100k files
    /// were a quarter of the daemon's heap).
    static func compacted(_ inputs: Set<EvaluationInput>, subject: Subject) -> Set<EvaluationInput> {
        // Most evaluations (an image's) read their own file and no listing: kept as they are,
        // without the copy that inserting into a set shared with the caller makes.
        if !subject.kind.isDirectory, inputs.count <= 4, inputs.contains(.file(subject.path)),
            !inputs.contains(where: { if case .listing = $0 { true } else { false } })
        {
            return inputs
        }
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
    var inputs: [EvaluationInput] { dependents.keys.map(input) }

    /// The evaluations that read `input`.
    func readers(of input: EvaluationInput) -> [Key] {
        guard let id = id(of: input), let readers = dependents[id] else { return [] }
        return readers.keys.map(key)
    }

    /// Forgets one evaluation; returns the diagnostics it had.
    mutating func drop(_ key: Key) -> [Diagnostic] {
        guard let id = id(of: key), let record = records.removeValue(forKey: id) else { return [] }
        forget(id, record)
        return record.diagnostics
    }

    /// Forgets everything; returns every diagnostic stored.
    mutating func removeAll() -> [Diagnostic] {
        defer {
            records.removeAll()
            dependents.removeAll()
            strings.removeAll()
        }
        return diagnostics
    }

    /// Room for `count` more records (a scan stores its batch's records one after the other:
    /// the dictionary grew and rehashed a dozen times on one thread). Only the records: how many
    /// inputs and strings they bring is not known, and room made for as many as records held
    /// 1.5 MB more at 100k files than growing as they come.
    mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(records.count + count)
    }

    mutating func store(_ key: Key, _ record: Record) {
        // A rule's name is its `LoadedRule.source`, which the rule set holds for the daemon's
        // life: shared, not copied into each root's table (1,000 roots held 1,000 copies of
        // every name that stored a record).
        let id = KeyID(
            rule: strings.retain(key.rule, copying: false), path: strings.retain(key.subject.path),
            kind: UInt8(key.subject.kind.ordinal))
        // A record stored over another forgets the old one's inputs (the engine drops first, so
        // this only keeps the index exact for any other caller). Found by the ids just taken:
        // `drop(key)` looked the key's two strings up again, hashing each once more per record
        // in the scan's serial tail.
        if let old = records.removeValue(forKey: id) { forget(id, old) }
        var stored = Stored(diagnostics: record.diagnostics)
        if record.inputs.count > 1 { stored.rest.reserveCapacity(record.inputs.count - 1) }
        for input in record.inputs {
            let inputID = retain(input)
            stored.append(inputID)
            dependents.update(inputID, default: .few([])) { $0.insert(id) }
        }
        records.updateValue(stored, forKey: id)
    }

    /// Gives a small store's tables arrays of their exact size, once a batch is stored.
    mutating func compact() {
        records.compact()
        dependents.compact()
    }

    // MARK: - ids

    private func id(of key: Key) -> KeyID? {
        guard let rule = strings.id(key.rule), let path = strings.id(key.subject.path) else { return nil }
        return KeyID(rule: rule, path: path, kind: UInt8(key.subject.kind.ordinal))
    }

    private func key(_ id: KeyID) -> Key {
        Key(rule: strings[id.rule], subject: Subject(SubjectKind.byOrdinal[Int(id.kind)], strings[id.path]))
    }

    private func id(of input: EvaluationInput) -> InputID? {
        switch input {
        case .file(let p): strings.id(p).map { InputID(path: $0, tag: 0, kind: 0) }
        case .listing(let p): strings.id(p).map { InputID(path: $0, tag: 1, kind: 0) }
        case .subjectsOf(let project, let kind): strings.id(project).map { InputID(path: $0, tag: 2, kind: UInt8(kind.ordinal)) }
        }
    }

    private mutating func retain(_ input: EvaluationInput) -> InputID {
        switch input {
        case .file(let p): InputID(path: strings.retain(p), tag: 0, kind: 0)
        case .listing(let p): InputID(path: strings.retain(p), tag: 1, kind: 0)
        case .subjectsOf(let project, let kind): InputID(path: strings.retain(project), tag: 2, kind: UInt8(kind.ordinal))
        }
    }

    private func input(_ id: InputID) -> EvaluationInput {
        switch id.tag {
        case 0: .file(strings[id.path])
        case 1: .listing(strings[id.path])
        default: .subjects(SubjectKind.byOrdinal[Int(id.kind)], project: strings[id.path])
        }
    }

    /// Takes a removed record out of the reverse index and releases its strings.
    private mutating func forget(_ id: KeyID, _ record: Stored) {
        record.forEachInput { input in
            if dependents.updateIfPresent(input, { $0.remove(id) }) == true { dependents.removeValue(forKey: input) }
            strings.release(input.path)
        }
        strings.release(id.rule)
        strings.release(id.path)
    }
}
