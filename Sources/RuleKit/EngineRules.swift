import Findings
import ProjectModel

/// Rule ids the engine itself reports (not from a module): what it could not read, and problems
/// in a project's own configuration. They cannot be disabled or ignored by that configuration.
public enum EngineRules {
    public static let unreadable = RuleInfo(
        id: "io.unreadable", severity: .error,
        summary: "A file or directory that should be checked cannot be read.",
        rationale:
            "reswatch never reports success for what it did not check: what it cannot read may hide a real defect, so the check fails.",
        fix: "Fix the permissions (chmod u+r / a+rx on directories) or exclude the path with ignore: in .reswatch.yaml.")

    public static let configInvalid = RuleInfo(
        id: "config.invalid", severity: .error,
        summary:
            "A .reswatch.yaml that does not parse or has a wrong key or value (error); a rule id or ignore glob in it that names nothing, or settings that turn every rule off (warning).",
        rationale:
            "A setting that is not applied silently changes what is checked: `reswatch check` exits 2 when a project's configuration could not be applied. A misspelt rule id disables nothing and a glob that matches nothing hides nothing; both are usually typos.",
        fix: "Fix the line reported (docs/configuration.md lists every key; `reswatch rules list` every rule id).")

    public static let pbxprojInvalid = RuleInfo(
        id: "project.pbxproj-invalid", severity: .error,
        summary: "An Xcode project.pbxproj that cannot be read or parsed.",
        rationale:
            "Without the project's build settings the context (devices, deployment target, icon set, Info.plist) is guessed; the findings may be wrong.",
        fix: "Fix the file (a merge conflict marker is the usual cause) so Xcode can open the project.")

    public static let infoPlistUnresolved = RuleInfo(
        id: "project.info-plist-unresolved", severity: .info,
        summary: "No single app Info.plist could be chosen for a project.",
        rationale:
            "Rules that read the app's Info.plist (launch screen, device capabilities, icon keys) do not run without one; reswatch says so rather than pass silently.",
        fix: "Set info-plist: in the project's .reswatch.yaml (or INFOPLIST_FILE in the Xcode project).")

    public static let xcconfigInvalid = RuleInfo(
        id: "project.xcconfig-invalid", severity: .info,
        summary: "An .xcconfig file, #include or base configuration of the app target that cannot be read.",
        rationale:
            "Xcode resolves build settings through the target's .xcconfig files; what an unread one sets (device family, deployment target, icon set) is unknown, so findings that depend on it may be wrong.",
        fix: "Fix the #include path, or add the missing file (a generated or gitignored xcconfig: check after generating it).")

    public static let notChecked = RuleInfo(
        id: "project.not-checked", severity: .info,
        summary: "A target that reswatch does not judge (tvOS, watchOS, visionOS, macOS, or an iOS app beyond the first).",
        rationale:
            "reswatch validates iOS apps and their extensions against Apple's iOS tables; it says which targets it left alone rather than pass them silently.",
        fix: "Nothing to fix; validate those targets with Xcode.")

    public static let leftOut = RuleInfo(
        id: "project.left-out", severity: .info,
        summary:
            "What no product of the project ships as its own, left unjudged and said once per kind: vendored folders (Pods, node_modules, Carthage, .docset documentation), what is inside prebuilt .framework/.xcframework bundles (a listed SDK's privacy manifest aside), the files outside every project folder of a tree that has projects, asset catalogs and extension Info.plists no target ships, and Git LFS pointers in place of images.",
        rationale:
            "Judging another project's code, a build product or a pointer to a file that was never fetched as if it were the app's own gives findings nobody can act on; passing them in silence would be a quiet \"no problems\". issue 58; Git LFS pointer format: git-lfs spec v1.",
        fix: "Nothing to fix for vendored folders (check --all-files judges them too); for LFS pointers run `git lfs pull` before checking."
    )

    /// What `project.left-out` says of a file that is a Git LFS pointer; `check` folds a
    /// project's findings that share the text after the name into one (`CheckReport`).
    public static func lfsPointer(_ name: String) -> String { name + lfsPointerSuffix }
    public static let lfsPointerSuffix =
        " is a Git LFS pointer, not the image (the clone has no LFS content): not judged; run `git lfs pull` and check again"

    public static let all = [unreadable, configInvalid, pbxprojInvalid, xcconfigInvalid, infoPlistUnresolved, notChecked, leftOut]
    /// Errors in a project's configuration: they change what is checked everywhere in the project,
    /// so they are shown with the findings of any path inside it.
    public static let projectRuleIDs: Set<String> = [configInvalid.id, pbxprojInvalid.id]

    package static func info(for kind: ContextProblem.Kind) -> (RuleInfo, Severity) {
        switch kind {
        case .configInvalid: (configInvalid, .error)
        case .configIneffective: (configInvalid, .warning)
        case .pbxprojInvalid: (pbxprojInvalid, .error)
        case .infoPlistUnresolved: (infoPlistUnresolved, .info)
        case .xcconfigProblem: (xcconfigInvalid, .info)
        case .notChecked: (notChecked, .info)
        case .leftOut: (leftOut, .info)
        }
    }
}
