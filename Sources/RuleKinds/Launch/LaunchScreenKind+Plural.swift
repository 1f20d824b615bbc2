import Findings
import ProjectModel
import RuleKit

/// The plural launch keys the iOS 27 SDK counts as a launch screen besides UILaunchStoryboardName
/// and UILaunchScreen (requirements-2026.md 1.4, VERIFIED; Apple's UILaunchStoryboards and
/// UILaunchScreens references): `UILaunchStoryboards` (`UIDefaultLaunchStoryboard`, and
/// `UILaunchStoryboardDefinitions` of `UILaunchStoryboardIdentifier` + `UILaunchStoryboardFile`)
/// and `UILaunchScreens` (`UIDefaultLaunchScreen`, `UILaunchScreenDefinitions` of
/// `UILaunchScreenIdentifier`). Their references are checked.
extension LaunchScreenKind {
    package static let imagesOnly = RuleInfo(
        id: "launch.images-only", severity: .warning,
        summary:
            "The app's only launch screen is launch images: no UILaunchStoryboardName, UILaunchStoryboards, UILaunchScreen or UILaunchScreens.",
        rationale:
            "Built with the iOS 27 SDK (required for uploads from April 2027) the Info.plist must declare one of the four launch keys; launch images alone are refused (iOS 27 release notes, UIKit 168247372; requirements-2026.md 1.4).",
        fix: "Add a launch storyboard (UILaunchStoryboardName) or UILaunchScreen, and delete the launch images.")

    /// Whether the plural keys declare a launch screen (said even when a reference is wrong).
    static func pluralLaunchScreens(
        _ dict: [String: PlistValue], interfaceNames: Set<String>, path: String, context: EvaluationContext
    ) -> Bool {
        var declared = false
        for suffix in ["", "~iphone", "~ipad"] {
            if let storyboards = dict["UILaunchStoryboards" + suffix] {
                declared = true
                let key = "UILaunchStoryboards" + suffix
                let definitions = storyboards["UILaunchStoryboardDefinitions"]?.array ?? []
                let identifiers = Set(definitions.compactMap { $0["UILaunchStoryboardIdentifier"]?.string })
                for definition in definitions {
                    guard let file = definition["UILaunchStoryboardFile"]?.string, !file.contains("$(") else { continue }
                    if !interfaceNames.contains(file) {
                        context.report(
                            storyboardMissing, path: path, key: key,
                            message:
                                "\(key) defines the launch storyboard \"\(file)\", but the project has no \(file).storyboard or \(file).xib\(file.hasSuffix(".storyboard") ? " (give the base name)" : "")"
                        )
                    }
                }
                if let fallback = storyboards["UIDefaultLaunchStoryboard"]?.string, !identifiers.contains(fallback) {
                    context.report(
                        storyboardMissing, path: path, key: key,
                        message: "\(key): UIDefaultLaunchStoryboard is \"\(fallback)\", which UILaunchStoryboardDefinitions does not define"
                    )
                }
            }
            if let screens = dict["UILaunchScreens" + suffix] {
                declared = true
                let key = "UILaunchScreens" + suffix
                let identifiers = Set(
                    (screens["UILaunchScreenDefinitions"]?.array ?? []).compactMap { $0["UILaunchScreenIdentifier"]?.string })
                if let fallback = screens["UIDefaultLaunchScreen"]?.string, !identifiers.contains(fallback) {
                    context.report(
                        missing, path: path, key: key,
                        message: "\(key): UIDefaultLaunchScreen is \"\(fallback)\", which UILaunchScreenDefinitions does not define")
                }
            }
        }
        return declared
    }
}
