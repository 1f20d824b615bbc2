import RuleKit

/// Something an evaluation read: a file's content / existence, a directory listing, or the set of
/// subjects of one kind in a project. A change to any of them re-runs the evaluation.
public enum EvaluationInput: Hashable, Sendable {
    case file(String)
    case listing(String)
    /// The path first: laid out (kind, path), the kind's byte was padded to 8 and an input took
    /// 32 bytes, not 24 (a project keeps its resolution's inputs in an array).
    case subjectsOf(project: String, kind: SubjectKind)

    /// The subjects of one kind in a project.
    public static func subjects(_ kind: SubjectKind, project: String) -> EvaluationInput {
        .subjectsOf(project: project, kind: kind)
    }
}
