import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `icon.alternate-sizes`: each alternate app icon has the sizes the app's devices need.
/// App Store Connect: "Missing recommended icon - The bundle does not contain an alternate app
/// icon for iPhone / iPod Touch of exactly '120x120' pixels … for iOS versions >= 10.0"
/// (ITMS-90890; iPad: 152x152 and 167x167, ITMS-90892). Source:
/// ITMS wording (docs/sources.md; Mealie-Recipes-iOS-APP PR #5).
package struct AlternateIconsKind: RuleKind {
    package static let name = "alternate-icons"
    package static let summary = "Checks that every alternate app icon has the sizes the app's devices need."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let alternateSizes = RuleInfo(
        id: "icon.alternate-sizes", severity: .warning, code: "ITMS-90890",
        summary:
            "An alternate app icon set (ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES, …_INCLUDE_ALL_APPICON_ASSETS, CFBundleAlternateIcons) lacks 120x120 (iPhone) or 152x152 / 167x167 (iPad); single-size sets and Icon Composer icons are complete by construction.",
        rationale:
            "App Store Connect: \"Missing recommended icon - The bundle does not contain an alternate app icon for iPhone / iPod Touch of exactly '120x120' pixels\" (ITMS-90890; iPad: ITMS-90892); the alternate shows blurred or not at all on those devices.",
        fix: "Fill the set's iPhone 60pt @2x and iPad 76pt @2x / 83.5pt @2x slots, or make it a single-size 1024 set (Xcode 14+).")

    package static let rules = [alternateSizes]

    /// What each device needs of an alternate icon, and the code App Store Connect sends.
    static let needed: [(device: Device, slots: [(String, Double, Int, Int)], code: String)] = [
        (.iphone, [("iphone", 60, 2, 120)], "ITMS-90890"), (.ipad, [("ipad", 76, 2, 152), ("ipad", 83.5, 2, 167)], "ITMS-90892"),
    ]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        let sets = context.subjects(.assetSet).map(\.path).filter {
            $0.hasSuffix(".appiconset") && project.otherTarget(containing: $0) == nil
        }
        let byName = Dictionary(
            sets.map { (String(RelativePath.name($0).dropLast(".appiconset".count)), $0) }, uniquingKeysWith: { a, _ in a })
        for (name, why) in alternates(of: project, setNames: byName.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, in: context) {
            // An Icon Composer icon makes every size; a missing set is icon.set-missing's or nobody's.
            guard IconBundles.compiled(named: name, in: context) == nil, let set = byName[name] else { continue }
            check(set: set, why: why, in: context)
        }
    }

    /// The app's alternate icon names, each with where it is declared.
    func alternates(of project: ProjectContext, setNames: [(String, String)], in context: EvaluationContext) -> [(String, String)] {
        var out: [(String, String)] = []
        func add(_ name: String, _ why: String) {
            if name != project.appIconName, !out.contains(where: { $0.0 == name }) { out.append((name, why)) }
        }
        for name in project.alternateAppIconNames { add(name, "ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES") }
        if project.includesAllAppIcons {
            // Every app icon set of the catalogs the app target compiles (when the target lists
            // its resources), not a watch app's or an extension's.
            for (name, path) in setNames where name != (project.appIconName ?? "AppIcon") {
                if !project.ownedPaths.isEmpty, !project.ownedPaths.contains(where: { RelativePath.isWithin(path, $0) }) { continue }
                add(name, "ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS")
            }
        }
        if let plist = project.infoPlist, case .success(let (value, _)) = context.plist(plist) {
            for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
                for (entry, alternate) in (value[key]?["CFBundleAlternateIcons"]?.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let name = alternate["CFBundleIconName"]?.string ?? alternate["CFBundleIconFiles"]?.array?.first?.string ?? entry
                    add(name, "\(key) → CFBundleAlternateIcons → \(entry) in Info.plist")
                }
            }
        }
        return out
    }

    func check(set: String, why: String, in context: EvaluationContext) {
        guard case .success(let contents)? = context.assetContents(RelativePath.join(set, "Contents.json")) else { return }
        // Single-size (Xcode 14+): one universal iOS 1024 entry, from which actool makes every size.
        let singleSize = contents.images.contains {
            $0.idiom == "universal" && ($0.platform == nil || $0.platform == "ios") && $0.points?.width == 1024 && $0.appearances.isEmpty
                && $0.filename != nil
        }
        // A set of another platform's icons (a watch app's, a Mac's) is no iOS alternate.
        let isIOSSet = contents.images.contains {
            ["iphone", "ipad", "ios-marketing"].contains($0.idiom ?? "") || ($0.idiom == "universal" && ($0.platform ?? "ios") == "ios")
        }
        guard !singleSize, isIOSSet else { return }
        // A slot whose entry names a file counts as filled: a missing file is icon.file-missing's.
        func filled(_ idiom: String, _ points: Double, _ scale: Int) -> Bool {
            contents.images.contains {
                $0.idiom == idiom && $0.points?.width == points && $0.scaleFactor == scale && $0.filename != nil && $0.appearances.isEmpty
            }
        }
        for need in Self.needed where context.project.devices.contains(need.device) {
            let missing = need.slots.filter { !filled($0.0, $0.1, $0.2) }.map { "\($0.3)x\($0.3)" }
            guard !missing.isEmpty else { continue }
            context.report(
                Self.alternateSizes, path: set,
                message:
                    "alternate app icon \(RelativePath.name(set)) (\(why)) has no \(missing.joined(separator: " or ")) \(need.device == .iphone ? "iPhone" : "iPad") icon (\(need.code))"
            )
        }
    }
}
