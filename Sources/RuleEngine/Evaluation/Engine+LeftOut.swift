import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// What the engine leaves unjudged and says so (issue 58): vendored folders the walk left out,
/// what is inside prebuilt frameworks, and paths no product reswatch judges ships.
extension Engine {
    /// The engine's own diagnostics: directories that cannot be read, and the vendored folders
    /// the walk left out (one finding per kind and project).
    func refreshScanDiagnostics() {
        scanDiagnostics = tree.unreadable.keys.sorted().map { dir in
            let reason = tree.unreadable[dir]!.reason
            return Diagnostic(
                rule: EngineRules.unreadable.id, severity: EngineRules.unreadable.severity, root: root,
                project: projectIndex.project(containing: dir), path: dir,
                message: "directory cannot be read (\(reason)); nothing below it is checked", fix: EngineRules.unreadable.fix)
        }
        vendoredSeen = tree.vendoredGeneration
        let folders = judgesVendored ? [] : tree.vendoredFolders
        guard !folders.isEmpty else { return }
        var groups: [String: (project: String, kind: VendoredKind, folders: [String])] = [:]
        for folder in folders {
            let project = projectIndex.project(containing: RelativePath.parent(folder))
            let kind = VendoredKind(RelativePath.name(folder))
            groups["\(project)\u{0}\(kind.rawValue)", default: (project, kind, [])].folders.append(folder)
        }
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            let shown =
                group.folders.prefix(5).joined(separator: ", ") + (group.folders.count > 5 ? " and \(group.folders.count - 5) more" : "")
            let what = group.folders.count == 1 ? group.kind.one : "\(group.folders.count) \(group.kind.many)"
            scanDiagnostics.append(
                Diagnostic(
                    rule: EngineRules.leftOut.id, severity: .info, root: root, project: group.project, path: group.folders[0],
                    message: "\(what) not judged as the app's (\(group.kind.why)): \(shown); check --all-files judges them",
                    fix: EngineRules.leftOut.fix))
        }
    }

    /// Any kind may say what it could not read, or what it left unjudged.
    static let alwaysAllowed: Set<String> = [EngineRules.unreadable.id, EngineRules.notChecked.id, EngineRules.leftOut.id]

    /// What is inside a prebuilt framework is its build output: only the bundle itself and its
    /// privacy manifest are judged (a listed SDK's, ITMS-91061).
    static func isInsidePrebuiltBundle(_ subject: Subject) -> Bool {
        subject.kind != .framework && subject.kind != .privacyManifest && ResourceTree.isInsidePrebuiltBundle(subject.path)
    }
}

extension ProjectContext {
    /// Whether some path of the project is not judged (`leftOutReason(for:)` is then asked).
    var leavesPathsOut: Bool {
        noAppReason != nil || resourcesKnown || !orphanInfoPlists.isEmpty || otherTargets.contains { $0.leftOutReason != nil }
    }
}
