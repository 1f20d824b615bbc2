import Findings
import ProjectModel
import RuleKit

/// `plist.launch-image-entry`: each `UILaunchImages` dictionary is well formed (Info.plist Key Reference, Table 4).
package struct LaunchImageEntriesKind: RuleKind {
    package static let name = "launch-image-entries"
    package static let summary = "Checks the UILaunchImages dictionaries of Info.plist against Apple's key table."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let entry = RuleInfo(
        id: "plist.launch-image-entry", severity: .error,
        summary:
            "A UILaunchImages dictionary without UILaunchImageName or UILaunchImageMinimumOSVersion, with a name carrying an extension or modifiers, a size not {w, h}, or an unknown orientation.",
        rationale:
            "Information Property List Key Reference, Table 4: the name \"should not include a filename extension, nor … modifiers such as @2x, -568h, ~iphone, or ~ipad\"; iOS 7+ uses this key exclusively, so a broken entry means no launch image.",
        fix:
            "Give each entry UILaunchImageName (base name only), UILaunchImageMinimumOSVersion (\"7.0\"), UILaunchImageSize (\"{320, 568}\") and a valid UILaunchImageOrientation."
    )
    package static let rules = [entry]

    static let orientations: Set<String> = ["Portrait", "PortraitUpsideDown", "Landscape", "LandscapeLeft", "LandscapeRight"]
    /// Modifiers iOS adds itself when it loads a UILaunchImages entry. Height modifiers (-568h) are
    /// not among them: entries are chosen by UILaunchImageSize, and the name is what tells a 568 pt
    /// image from a 480 pt one — Xcode's actool itself writes names like "LaunchImage-700-568h".
    static let modifiers = ["@2x", "@3x", "~iphone", "~ipad"]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard case .success(let (plist, _)) = context.plist(subject.path), let dict = plist.dictionary else { return }
        for key in ["UILaunchImages", "UILaunchImages~ipad", "UILaunchImages~iphone"] {
            guard let value = dict[key] else { continue }
            guard let list = value.array else {
                context.report(Self.entry, path: subject.path, message: "\(key) is not an array of dictionaries")
                continue
            }
            for (i, item) in list.enumerated() {
                let at = "\(key)[\(i)]"
                guard let e = item.dictionary else {
                    context.report(Self.entry, path: subject.path, message: "\(at) is not a dictionary")
                    continue
                }
                for problem in Self.problems(e) { context.report(Self.entry, path: subject.path, message: "\(at): \(problem)") }
            }
        }
    }

    static func problems(_ e: [String: PlistValue]) -> [String] {
        var out: [String] = []
        if let name = e["UILaunchImageName"]?.string, !name.isEmpty {
            if name.lowercased().hasSuffix(".png") { out.append("UILaunchImageName \"\(name)\" includes the extension") }
            if let m = modifiers.first(where: { name.contains($0) }) {
                out.append("UILaunchImageName \"\(name)\" includes the modifier \(m)")
            }
        } else {
            out.append("UILaunchImageName is missing (required)")
        }
        if let v = e["UILaunchImageMinimumOSVersion"]?.string {
            if OSVersion(v) == nil { out.append("UILaunchImageMinimumOSVersion \"\(v)\" is not a version such as \"7.0\"") }
        } else {
            out.append("UILaunchImageMinimumOSVersion is missing (required)")
        }
        if let size = e["UILaunchImageSize"] {
            if size.string.flatMap(LaunchSize.parse) == nil {
                out.append("UILaunchImageSize \"\(size.text ?? "?")\" is not of the form {width, height}")
            }
        }
        if let o = e["UILaunchImageOrientation"] {
            if !orientations.contains(o.string ?? "") {
                out.append("UILaunchImageOrientation \"\(o.text ?? "?")\" is not one of \(orientations.sorted().joined(separator: ", "))")
            }
        }
        return out
    }

    package static let examples: [RuleExample] = {
        let entry = { (body: String) in ExampleTrees.plist("<key>UILaunchImages</key><array><dict>\(body)</dict></array>") }
        return [
            RuleExample(
                "a complete entry",
                files: [
                    "App/Info.plist": entry(
                        "<key>UILaunchImageName</key><string>Default</string><key>UILaunchImageMinimumOSVersion</key><string>7.0</string><key>UILaunchImageSize</key><string>{320, 568}</string><key>UILaunchImageOrientation</key><string>Portrait</string>"
                    )
                ],
                passes: ["plist.launch-image-entry"]),
            RuleExample(
                "a name with @2x and .png",
                files: [
                    "App/Info.plist": entry(
                        "<key>UILaunchImageName</key><string>Default@2x.png</string><key>UILaunchImageMinimumOSVersion</key><string>7.0</string>"
                    )
                ],
                triggers: ["plist.launch-image-entry"]),
            RuleExample(
                "no minimum OS version", files: ["App/Info.plist": entry("<key>UILaunchImageName</key><string>Default</string>")],
                triggers: ["plist.launch-image-entry"]),
            RuleExample(
                "a size that is not {w, h}",
                files: [
                    "App/Info.plist": entry(
                        "<key>UILaunchImageName</key><string>Default</string><key>UILaunchImageMinimumOSVersion</key><string>7.0</string><key>UILaunchImageSize</key><string>320x568</string>"
                    )
                ],
                triggers: ["plist.launch-image-entry"]),
            RuleExample(
                "an unknown orientation",
                files: [
                    "App/Info.plist": entry(
                        "<key>UILaunchImageName</key><string>Default</string><key>UILaunchImageMinimumOSVersion</key><string>7.0</string><key>UILaunchImageOrientation</key><string>Upright</string>"
                    )
                ],
                triggers: ["plist.launch-image-entry"]),
        ]
    }()
}
