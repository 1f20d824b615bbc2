import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// What a rule sees while it evaluates one subject. Every read is recorded as an input.
/// The engine's `EvaluationContext`: one evaluation of one rule on one subject, in a batch.
final class Evaluation: EvaluationContext {
    /// What the batch's evaluations share (`EvaluationBatch`). Methods read it through a local
    /// (`let batch = self.batch`): called on `self.batch.tree`, a method got a copy of the whole
    /// tree (its buffers retained, then released) for each call, twice for each image read; on
    /// a local reference the tree is borrowed in place.
    let batch: EvaluationBatch
    public let subject: Subject
    /// Index of this evaluation's project context in the batch's.
    let contextIndex: Int
    /// Index of the rule running in the batch's.
    let ruleIndex: Int
    /// The subject's folder, from which the paths it reads are found (`ResourceTree.Anchor`).
    let anchor: ResourceTree.Anchor?
    /// What this evaluation read besides its subject's own file, which is not recorded: the store
    /// keeps that input for a file subject and never for a folder (`EvaluationStore.compacted`).
    /// Most evaluations (an image's) read nothing else, and then hash and allocate nothing.
    private(set) var inputs: Set<EvaluationInput> = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Findings folded into a cause (one cause, one finding): the cause's own message and what
    /// follows from it, by the cause's index in `diagnostics`.
    private var folded: [Int: (message: String, consequences: [String])] = [:]
    /// The files findings are placed in, read and indexed once for this evaluation.
    private lazy var textIndexes = TextIndexCache { [unowned self] in try? self.read($0).get() }

    init(
        batch: EvaluationBatch, subject: Subject, contextIndex: Int, ruleIndex: Int, anchor: ResourceTree.Anchor? = nil
    ) {
        self.batch = batch
        self.subject = subject
        self.contextIndex = contextIndex
        self.ruleIndex = ruleIndex
        self.anchor = anchor
    }

    public var root: String { batch.root }
    /// Id of the rule module entry running (for messages about the rule itself).
    public var ruleSource: String { batch.plans[ruleIndex].rule.source }
    /// The project this evaluation is in, read in place (a copy would retain its every field;
    /// `_read` of an Array element made one, for each `context.project.x` a rule wrote). The
    /// batch, which owns the memory, lives as long as this context.
    public var projectAddress: UnsafePointer<ProjectContext> { batch.context(at: contextIndex) }

    private func record(_ input: EvaluationInput) {
        if batch.recordsInputs, input != .file(subject.path) { inputs.insert(input) }
    }

    /// Absolute path of a root-relative path.
    public func absolute(_ path: String) -> String {
        let batch = self.batch
        return ResourceTree.absolute(path, root: batch.tree.root)
    }

    public func exists(_ path: String) -> Bool {
        let batch = self.batch
        record(.file(path))
        return batch.tree.node(path, from: anchor) != nil
    }

    public func isDirectory(_ path: String) -> Bool {
        let batch = self.batch
        record(.file(path))
        guard let node = batch.tree.node(path, from: anchor) else { return false }
        return batch.tree.isDirectory(node: node)
    }

    public func read(_ path: String) -> Result<[UInt8], SystemError> {
        let batch = self.batch
        record(.file(path))
        let node = batch.tree.node(path, from: anchor)
        if let node, batch.tree.isDirectory(node: node) { return .failure(SystemError(call: "read", path: absolute(path), errno: 21)) }
        guard let node, let status = batch.tree.status(ofNode: node) else {
            return .failure(SystemError(call: "open", path: absolute(path), errno: 2))
        }
        switch batch.tree.contentPath(path, status: status) {
        case .failure(let e): return .failure(e)
        case .success(let real):
            do { return .success(try FileSystem.readFile(real, limit: FileLimits.bytes(for: path))) } catch { return .failure(error) }
        }
    }

    public func list(_ directory: String) -> Result<[DirectoryEntry], SystemError> {
        let batch = self.batch
        record(.listing(directory))
        return batch.tree.entries(of: directory)
    }

    public func image(_ path: String) -> Result<ImageFacts, SystemError> {
        record(.file(path))
        let batch = self.batch
        guard let status = batch.tree.status(of: path, from: anchor) else {
            return .failure(SystemError(call: "open", path: absolute(path), errno: 2))
        }
        // The tree's lstat is the key, unless the path is a link (then stat the target, if it stays inside).
        switch batch.tree.contentPath(path, status: status) {
        case .failure(let e): return .failure(e)
        case .success(let real): return batch.facts.image(at: real, key: status.kind == .symlink ? nil : status.key)
        }
    }

    public func pixels(_ path: String) -> Result<PixelFacts, SystemError> {
        let batch = self.batch
        record(.file(path))
        guard let status = batch.tree.status(of: path, from: anchor) else {
            return .failure(SystemError(call: "open", path: absolute(path), errno: 2))
        }
        switch batch.tree.contentPath(path, status: status) {
        case .failure(let e): return .failure(e)
        case .success(let real): return batch.facts.pixels(at: real, key: status.kind == .symlink ? nil : status.key)
        }
    }

    public func plist(_ path: String) -> Result<(PlistValue, PlistFormat), PlistError> {
        let batch = self.batch
        record(.file(path))
        guard let status = batch.tree.status(of: path, from: anchor) else {
            return .failure(.unreadable(SystemError(call: "open", path: absolute(path), errno: 2)))
        }
        return batch.parsed.plist(absolute(path), key: status.key) {
            switch read(path) {
            case .failure(let e): .failure(.unreadable(e))
            case .success(let bytes): PropertyListReader.parse(bytes)
            }
        }
    }

    public func assetContents(_ path: String) -> Result<AssetContents, ContentsError>? {
        let batch = self.batch
        record(.file(path))
        guard let status = batch.tree.status(of: path, from: anchor) else { return nil }
        return batch.parsed.contents(absolute(path), key: status.key) {
            switch read(path) {
            case .failure(let e): .failure(.unreadable(e.reason))
            case .success(let bytes): AssetContentsReader.parse(bytes)
            }
        }
    }

    /// A value computed from a file's bytes (or from why they could not be read), cached by the
    /// file's stat key under `tag`: an unchanged file is not read again.
    public func derived<T: Sendable>(_ path: String, tag: String, compute: (Result<[UInt8], SystemError>) -> T) -> T {
        let batch = self.batch
        record(.file(path))
        guard let status = batch.tree.status(of: path, from: anchor) else {
            return compute(.failure(SystemError(call: "open", path: absolute(path), errno: 2)))
        }
        // A link's own stat says nothing of its target: computed afresh.
        if status.kind == .symlink { return compute(read(path)) }
        return batch.parsed.derived(absolute(path), tag: tag, key: status.key) { compute(read(path)) }
    }

    /// Subjects of a kind in this evaluation's project.
    public func subjects(_ kind: SubjectKind) -> [Subject] {
        let batch = self.batch
        record(.subjects(kind, project: project.directory))
        let all = batch.subjectIndex.subjects(kind, inProject: project.directory, tree: batch.tree)
        // What no product ships is no rule's to see, here as when it is a subject itself (a
        // launch image dropped from the project, a Mac target's icon: issue 58).
        guard project.leavesPathsOut else { return all }
        let key = EvaluationBatch.ShippedSubjectsKey(context: contextIndex, kind: kind)
        if let shipped = batch.shippedSubjects.withLock({ $0[key] }) { return shipped }
        let shipped = all.filter { project.leftOutReason(for: $0.path) == nil }
        batch.shippedSubjects.withLock { $0[key] = shipped }
        return shipped
    }

    /// Whether this evaluation has reported anything yet.
    public var hasFindings: Bool { !diagnostics.isEmpty }

    /// Drops what this evaluation reported about its subject, which turned out not to ship (what
    /// it read to find that out is recorded, so the findings come back when that changes). What
    /// could not be read, and what was left out, is still said.
    public func withdrawFindings() {
        diagnostics.removeAll { $0.rule != EngineRules.unreadable.id && $0.rule != EngineRules.leftOut.id }
    }

    /// The requirement's full form (`EvaluationContext.report` documents it).
    public func report(
        _ rule: RuleInfo, severity: Severity?, path: String?, line: Int?, key: String?, message: String, fix: String?,
        related: [String], follows cause: ReportedFinding?, brief: String?
    ) -> ReportedFinding? {
        guard batch.plans[ruleIndex].allowed.contains(rule.id), !project.disabledRules.contains(rule.id) else { return nil }
        var finalSeverity = severity ?? rule.severity
        if let override = project.severityOverrides[rule.id] {
            guard let s = override.severity else { return nil }
            finalSeverity = s
        }
        let target = path ?? subject.path
        if GlobMatcher.isIgnored(target, projectDirectory: project.directory, patterns: project.ignore) { return nil }
        if let cause, cause.index < diagnostics.count {
            fold("\(brief ?? message) [\(rule.id)]", severity: finalSeverity, into: cause.index)
            return cause
        }
        let anchor = DiagnosticAnchor(
            isFile: {
                self.record(.file($0)); return self.batch.tree.isFile($0)
            },
            list: { (try? self.list($0).get()) ?? [] }, text: textIndexes.index)
        let at = anchor.anchor(
            .init(path: target, line: line, related: related), projectDirectory: project.directory, message: message, key: key)
        diagnostics.append(
            Diagnostic(
                rule: rule.id, severity: finalSeverity, code: rule.code, root: root, project: project.directory,
                path: at.path, line: at.line, column: at.column, message: at.hint.map { "\(message); \($0)" } ?? message,
                fix: fix ?? rule.fix, related: at.related, relatedLocations: at.relatedLocations))
        return ReportedFinding(index: diagnostics.count - 1)
    }

    /// Most consequences a cause's message lists by name; the rest are counted.
    static let foldedListLimit = 8

    private func fold(_ consequence: String, severity: Severity, into index: Int) {
        var entry = folded[index] ?? (diagnostics[index].message, [])
        entry.consequences.append(consequence)
        folded[index] = entry
        let named = entry.consequences.prefix(Self.foldedListLimit).joined(separator: "; ")
        let more = entry.consequences.count - Self.foldedListLimit
        diagnostics[index].message = entry.message + "; following from it: " + named + (more > 0 ? "; and \(more) more" : "")
        if severity > diagnostics[index].severity { diagnostics[index].severity = severity }
    }
}
