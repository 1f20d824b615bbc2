import Findings
import ImageFacts
import ProjectModel
import SystemCalls

/// What a rule kind sees while it evaluates one subject: the files of the tree (every read is
/// recorded, so a change to what it read re-runs it), the product the subject belongs to
/// (`project`: the target that ships it, its platform, its effective Info.plist) and where its
/// findings go. The engine provides it; a kind needs nothing else of the engine.
public protocol EvaluationContext: AnyObject, ProjectFileAccess {
    /// The subject being evaluated.
    var subject: Subject { get }
    /// The checked tree's root (absolute).
    var root: String { get }
    /// Id of the rule module entry running (for messages about the rule itself).
    var ruleSource: String { get }
    /// Where the project context of this evaluation is, valid while the evaluation runs (read it
    /// through `project`, which lends it in place instead of copying its every field).
    var projectAddress: UnsafePointer<ProjectContext> { get }

    /// Absolute path of a root-relative path.
    func absolute(_ path: String) -> String
    func exists(_ path: String) -> Bool
    func isDirectory(_ path: String) -> Bool
    func image(_ path: String) -> Result<ImageFacts, SystemError>
    func pixels(_ path: String) -> Result<PixelFacts, SystemError>
    func plist(_ path: String) -> Result<(PlistValue, PlistFormat), PlistError>
    /// A `Contents.json`, parsed once per change; nil when the file does not exist.
    func assetContents(_ path: String) -> Result<AssetContents, ContentsError>?
    /// A value computed from a file's bytes (or from why they could not be read), cached by the
    /// file's stat key under `tag`: an unchanged file is not read again.
    func derived<T: Sendable>(_ path: String, tag: String, compute: (Result<[UInt8], SystemError>) -> T) -> T
    /// Subjects of a kind in this evaluation's project (what no product ships is left out).
    func subjects(_ kind: SubjectKind) -> [Subject]

    /// Whether this evaluation has reported anything yet.
    var hasFindings: Bool { get }
    /// Drops what this evaluation reported about its subject, which turned out not to ship (what
    /// it read to find that out is recorded, so the findings come back when that changes). What
    /// could not be read, and what was left out, is still said.
    func withdrawFindings()

    /// Reports a finding (the full form; `report(_:severity:path:…)` gives the defaults). Project
    /// settings (disable, severity, ignore) are applied here. `key` names the plist key the
    /// finding is about, where the rule knows it: the finding is shown on it, or, when the plist
    /// lacks it, on the top-level dictionary with where to add it.
    ///
    /// One cause, one finding: a finding that `follows` another this evaluation reported (a size
    /// missing only because the master it is made from is missing) is folded into it: the cause's
    /// message lists it (`brief`, else its message, with its id) and takes its severity if higher.
    /// When the cause was not reported (disabled, ignored), the finding stands on its own.
    /// Returns the finding, for findings that follow from it (nil when settings suppress it).
    func report(
        _ rule: RuleInfo, severity: Severity?, path: String?, line: Int?, key: String?, message: String, fix: String?,
        related: [String], follows cause: ReportedFinding?, brief: String?
    ) -> ReportedFinding?
}

extension EvaluationContext {
    /// The project (the product and its target) this evaluation is in, lent in place.
    public var project: ProjectContext { unsafeAddress { projectAddress } }

    /// Reports a finding; see the requirement for what each argument does.
    @discardableResult
    public func report(
        _ rule: RuleInfo, severity: Severity? = nil, path: String? = nil, line: Int? = nil, key: String? = nil, message: String,
        fix: String? = nil, related: [String] = [], follows cause: ReportedFinding? = nil, brief: String? = nil
    ) -> ReportedFinding? {
        report(
            rule, severity: severity, path: path, line: line, key: key, message: message, fix: fix, related: related, follows: cause,
            brief: brief)
    }
}

/// A finding one evaluation reported, which later findings of it may follow from.
public struct ReportedFinding: Sendable, Hashable {
    package let index: Int

    package init(index: Int) { self.index = index }
}
