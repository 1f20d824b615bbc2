import Findings
import ImageFacts
import ProjectModel
import RuleKinds
import RuleKit
import SystemCalls
import Testing

/// A kind is written against `RuleKit` alone (issue 58): it runs on any `EvaluationContext`, here
/// one over files in memory, with no engine, tree index or daemon behind it.
@Suite struct RuleKitSeamTests {
    /// An evaluation context over files held in memory, recording what is reported.
    final class MemoryContext: EvaluationContext {
        let files: [String: [UInt8]]
        let subject: Subject
        let root = "/memory"
        let ruleSource = "test"
        private let projectStorage: UnsafeMutablePointer<ProjectContext>
        private(set) var reported: [(rule: String, path: String?, line: Int?, message: String)] = []

        init(files: [String: String], subject: Subject, project: ProjectContext = ProjectContext(directory: "")) {
            self.files = files.mapValues { Array($0.utf8) }
            self.subject = subject
            projectStorage = .allocate(capacity: 1)
            projectStorage.initialize(to: project)
        }

        deinit {
            projectStorage.deinitialize(count: 1)
            projectStorage.deallocate()
        }

        var projectAddress: UnsafePointer<ProjectContext> { UnsafePointer(projectStorage) }
        func absolute(_ path: String) -> String { root + "/" + path }
        func exists(_ path: String) -> Bool { files[path] != nil }
        func isDirectory(_ path: String) -> Bool { false }
        func read(_ path: String) -> Result<[UInt8], SystemError> {
            files[path].map { .success($0) } ?? .failure(SystemError(call: "open", path: absolute(path), errno: 2))
        }
        func list(_ directory: String) -> Result<[DirectoryEntry], SystemError> { .success([]) }
        func image(_ path: String) -> Result<ImageFacts, SystemError> { .failure(SystemError(call: "open", path: path, errno: 2)) }
        func pixels(_ path: String) -> Result<PixelFacts, SystemError> { .failure(SystemError(call: "open", path: path, errno: 2)) }
        func plist(_ path: String) -> Result<(PlistValue, PlistFormat), PlistError> {
            switch read(path) {
            case .failure(let e): .failure(.unreadable(e))
            case .success(let bytes): PropertyListReader.parse(bytes)
            }
        }
        func assetContents(_ path: String) -> Result<AssetContents, ContentsError>? {
            files[path].map { AssetContentsReader.parse($0) }
        }
        func derived<T: Sendable>(_ path: String, tag: String, compute: (Result<[UInt8], SystemError>) -> T) -> T { compute(read(path)) }
        func subjects(_ kind: SubjectKind) -> [Subject] { [] }
        var hasFindings: Bool { !reported.isEmpty }
        func withdrawFindings() { reported.removeAll() }
        func report(
            _ rule: RuleInfo, severity: Severity?, path: String?, line: Int?, key: String?, message: String, fix: String?,
            related: [String], follows cause: ReportedFinding?, brief: String?
        ) -> ReportedFinding? {
            reported.append((rule.id, path, line, message))
            return ReportedFinding(index: reported.count - 1)
        }
    }

    static let plist = "App/Info.plist"

    @Test func aKindRunsOnAContextWithoutTheEngine() {
        let kind = PlistSyntaxKind(parameters: .empty())
        let broken = MemoryContext(
            files: [Self.plist: "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key>\n</plist>\n"],
            subject: Subject(.infoPlist, Self.plist))
        kind.evaluate(broken.subject, in: broken)
        #expect(broken.reported.map(\.rule) == ["plist.parse-error"])
        #expect(broken.reported.first?.path == Self.plist)

        let valid = MemoryContext(
            files: [
                Self.plist: "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key><string>b</string>\n</dict>\n</plist>\n"
            ],
            subject: Subject(.infoPlist, Self.plist))
        kind.evaluate(valid.subject, in: valid)
        #expect(valid.reported.isEmpty)
    }

    @Test func whatCannotBeReadIsSaidThroughTheSameSeam() {
        let kind = PlistSyntaxKind(parameters: .empty())
        let missing = MemoryContext(files: [:], subject: Subject(.infoPlist, Self.plist))
        kind.evaluate(missing.subject, in: missing)
        #expect(missing.reported.map(\.rule) == [EngineRules.unreadable.id])
    }

    @Test func theProductsEffectiveInfoPlistIsTheFileMergedWithWhatTheTargetGenerates() {
        var project = ProjectContext(directory: "")
        project.infoPlist = Self.plist
        let context = MemoryContext(
            files: [
                Self.plist: "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key><string>b</string>\n</dict>\n</plist>\n"
            ],
            subject: Subject(.infoPlist, Self.plist), project: project)
        #expect(context.project.infoPlist == Self.plist)
        #expect(context.effectiveInfoPlist(Self.plist)?["A"] == .string("b"))
        #expect(context.effectiveInfoPlist("Other.plist") == nil)
    }
}
