/// Every subject of the tree and the project it belongs to, both ways, and the subjects the
/// current change added, removed or moved between projects.
struct SubjectIndex {
    private(set) var projectOf: [Subject: String] = [:]
    private(set) var byProject: [String: Set<Subject>] = [:]
    /// (subject, old project, new project) of the current change.
    var changes: [(subject: Subject, old: String?, new: String?)] = []

    subscript(_ subject: Subject) -> String? { projectOf[subject] }

    mutating func removeAll() {
        projectOf = [:]
        byProject = [:]
    }

    /// Puts a subject in a project; `recording` adds the move to `changes`.
    mutating func set(_ s: Subject, _ project: String, recording: Bool) {
        let old = projectOf.updateValue(project, forKey: s)
        if let old, old != project { byProject[old]?.remove(s) }
        byProject[project, default: []].insert(s)
        if recording && old != project { changes.append((s, old, project)) }
    }

    /// Takes a subject out; returns the project it was in.
    @discardableResult
    mutating func unset(_ s: Subject, recording: Bool) -> String? {
        guard let old = projectOf.removeValue(forKey: s) else { return nil }
        byProject[old]?.remove(s)
        if byProject[old]?.isEmpty == true { byProject[old] = nil }
        if recording { changes.append((s, old, nil)) }
        return old
    }
}
