import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// `launch.size-mismatch`, `launch.bad-name`: launch images, loose (`Default-568h@2x.png`) or in a
/// `.launchimage` set, against the size tables of Apple's programming guides (docs/sources.md).
package struct LaunchImagesKind: RuleKind {
    package static let name = "launch-images"
    package static let summary = "Checks launch image names (Apple's modifiers) and pixel sizes (Apple's tables)."
    package static let subjects: Set<SubjectKind> = [.image, .assetSet]

    package static let sizeMismatch = RuleInfo(
        id: "launch.size-mismatch", severity: .error,
        summary: "A launch image's pixels differ from the size its name modifiers or its Contents.json entry imply.",
        rationale:
            "Apple's programming guides list the exact launch image sizes (320x480 … 1242x2208, iPad 768x1024 …); a wrong size is stretched or ignored, and App Store Connect rejects some (ITMS-90096 for 568h).",
        fix: "Export the launch image at the listed size, or rename it so its modifiers match its size (e.g. -736h@3x for 1242x2208).")
    package static let badName = RuleInfo(
        id: "launch.bad-name", severity: .warning,
        summary:
            "Launch image modifiers out of order or invalid: -568h not first or without @2x, orientation modifiers on an iPhone-only image, an unknown -modifier that is no declared URL scheme, a lower-case base name.",
        rationale:
            "App Programming Guide (App-Related Resources): <basename><usage modifiers><scale><device>.png; iOS matches names exactly (case-sensitively on device), so a misnamed image is never shown.",
        fix: "Rename to <basename>[-568h|-667h|-736h][-Portrait|-Landscape…][-scheme][@2x|@3x][~iphone|~ipad].png.")
    package static let rules = [sizeMismatch, badName]
    package static let parameters = [
        "sizes": "rows \"device height orientation scale WxH\" (height '-' for none)",
        "legacy-sizes": "rows in the same form that are accepted too (iPad without status bar)",
    ]

    struct Row: Hashable {
        let device: String, height: String, orientation: String, scale: Int
        let width: Int, heightPx: Int
        let legacy: Bool
    }
    let rows: [Row]
    static let heights: Set<String> = ["568h", "667h", "736h", "812h", "896h"]
    static let orientations: Set<String> = ["Portrait", "PortraitUpsideDown", "Landscape", "LandscapeLeft", "LandscapeRight"]

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        var rows: [Row] = []
        for (key, legacy) in [("sizes", false), ("legacy-sizes", true)] {
            for text in try p.strings(key) ?? [] {
                let f = text.split(separator: " ").map(String.init)
                guard f.count == 5, let scale = Int(f[3].dropLast()), f[3].hasSuffix("x"),
                    case let wh = f[4].split(separator: "x"), wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1])
                else { throw p.error("\(key): '\(text)' is not \"device height orientation scale WxH\"") }
                rows.append(Row(device: f[0], height: f[1], orientation: f[2], scale: scale, width: w, heightPx: h, legacy: legacy))
            }
        }
        guard !rows.isEmpty else { throw p.error("launch-images: give the sizes: table") }
        self.rows = rows
    }

    /// Loose images and .launchimage sets; images inside asset sets are the set's business.
    package func applies(to subject: Subject) -> Bool {
        if subject.kind == .assetSet { return RelativePath.hasSuffix(subject.path, ".launchimage") }
        return !SubjectClassifier.parentIsAssetSet(subject.path)
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        switch subject.kind {
        case .assetSet where subject.path.hasSuffix(".launchimage"): evaluateSet(subject, context)
        case .image: evaluateLoose(subject, context)
        default: return
        }
    }

    /// Sizes accepted for a (device, height, orientation, scale).
    func expected(_ device: String, _ height: String, _ orientation: String, _ scale: Int) -> [Row] {
        let o = orientation.hasPrefix("Landscape") || orientation == "landscape" ? "landscape" : "portrait"
        let same = rows.filter { $0.device == device && $0.height == height && $0.orientation == o }
        let exact = same.filter { $0.scale == scale }
        if !exact.isEmpty { return exact }
        // No row at this scale (e.g. -736h@2x): the same points at the file's scale.
        return same.map {
            Row(
                device: $0.device, height: $0.height, orientation: $0.orientation, scale: scale,
                width: $0.width / $0.scale * scale, heightPx: $0.heightPx / $0.scale * scale, legacy: $0.legacy)
        }
    }

    func check(_ path: String, _ facts: PNGHeader, _ candidates: [Row], _ what: String, _ context: EvaluationContext) {
        guard !candidates.isEmpty else { return }
        if candidates.contains(where: { $0.width == facts.width && $0.heightPx == facts.height }) { return }
        let want = candidates.filter { !$0.legacy }.first ?? candidates[0]
        context.report(
            Self.sizeMismatch, path: path,
            message: "\(RelativePath.name(path)) is \(facts.width)x\(facts.height) but \(what) implies \(want.width)x\(want.heightPx)")
    }

    // MARK: loose files

    func evaluateLoose(_ subject: Subject, _ context: EvaluationContext) {
        let file = RelativePath.name(subject.path)
        let parent = RelativePath.name(RelativePath.parent(subject.path))
        guard SubjectClassifier.assetSetType(ofDirectory: parent) == nil, file.lowercased().hasSuffix(".png") else { return }
        let names = LaunchPlistNames(context)
        let bases = names.bases
        let entries = names.entries
        let stem = String(file.dropLast(4))
        guard let base = bases.filter({ stem.hasPrefix($0) }).max(by: { $0.count < $1.count }) else {
            if stem.lowercased().hasPrefix("default"), Self.isLaunchShaped(stem.dropFirst("default".count)) {
                context.report(
                    Self.badName, path: subject.path,
                    message: "\(file): iOS looks for \"Default…\" case-sensitively on the device; this launch image is never used")
            }
            return
        }
        var rest = Substring(stem.dropFirst(base.count))
        var device: String?
        for d in ["~iphone", "~ipad"] where rest.hasSuffix(d) {
            device = String(d.dropFirst())
            rest = rest.dropLast(d.count)
        }
        var scale = 1
        for (suffix, s) in [("@2x", 2), ("@3x", 3)] where rest.hasSuffix(suffix) {
            scale = s
            rest = rest.dropLast(suffix.count)
        }
        let modifiers = rest.split(separator: "-", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if !rest.isEmpty && !rest.hasPrefix("-") { return }  // "DefaultLogo.png": not a launch image name
        var height = "-"
        var orientation = "-"
        for (i, m) in modifiers.enumerated() {
            if Self.heights.contains(m) {
                if i != 0 {
                    context.report(Self.badName, path: subject.path, message: "\(file): -\(m) must come first among the modifiers")
                }
                height = m
            } else if Self.orientations.contains(m) {
                orientation = m
            } else if !names.schemes.contains(m) {
                context.report(
                    Self.badName, path: subject.path,
                    message: "\(file): -\(m) is neither a size, an orientation nor a declared URL scheme (CFBundleURLSchemes)")
            }
        }
        reportScale(of: height, scale: scale, file: file, subject.path, context)
        let iPad = device == "ipad" || (device == nil && orientation != "-" && context.project.devices.contains(.ipad))
        if orientation != "-", !iPad, (device == "iphone" || context.project.devices == [.iphone]),
            !["736h", "812h", "896h"].contains(height)
        {
            context.report(Self.badName, path: subject.path, message: "\(file): orientation modifiers apply to iPad launch images only")
        }
        guard case .success(let facts) = context.image(subject.path), let header = facts.header else { return }
        // The entry's size applies to the file it resolves to: its name plus a scale (and ~iphone).
        if let entry = entries[base], modifiers.isEmpty, device != "ipad" {
            return check(subject.path, header, entry: entry, scale: scale, context)
        }
        // A height modifier at @1x (-568h.png) names no size at all: launch.bad-name says so.
        if height != "-" && scale == 1 { return }
        let candidates = expected(iPad ? "ipad" : "iphone", height, orientation, scale)
        check(subject.path, header, candidates, "its name", context)
    }

    /// What follows a lower-case "default" names a launch image only when it is launch-image
    /// modifiers (`-568h`, `-Portrait`, `@2x`, `~ipad`): `default-icon@2x.png` is an alternate
    /// icon's preview (issue 58), not a misnamed launch image.
    static func isLaunchShaped(_ rest: Substring) -> Bool {
        var rest = rest.lowercased()[...]
        for d in ["~iphone", "~ipad"] where rest.hasSuffix(d) { rest = rest.dropLast(d.count) }
        for s in ["@2x", "@3x"] where rest.hasSuffix(s) { rest = rest.dropLast(s.count) }
        let known = heights.union(orientations.map { $0.lowercased() })
        return rest.split(separator: "-", omittingEmptySubsequences: false).dropFirst().allSatisfy { known.contains(String($0)) }
            && (rest.isEmpty || rest.hasPrefix("-"))
    }

    /// -568h and -667h images are @2x; -736h and -812h @3x.
    func reportScale(of height: String, scale: Int, file: String, _ path: String, _ context: EvaluationContext) {
        if height == "568h" || height == "667h", scale != 2 {
            context.report(Self.badName, path: path, message: "\(file): -\(height) images are @2x")
        }
        if height == "736h" || height == "812h", scale != 3 {
            context.report(Self.badName, path: path, message: "\(file): -\(height) images are @3x")
        }
    }

    /// A file a UILaunchImages entry names: its size is the entry's (points × scale), not the name's.
    func check(_ path: String, _ header: PNGHeader, entry: LaunchPlistNames.Entry, scale: Int, _ context: EvaluationContext) {
        let w = CheckedNumber.rounded(entry.width * Double(scale), in: 0...CheckedNumber.maximumPixels) ?? -1
        let h = CheckedNumber.rounded(entry.height * Double(scale), in: 0...CheckedNumber.maximumPixels) ?? -1
        let row = Row(
            device: "-", height: "-", orientation: "-", scale: scale, width: entry.landscape ? h : w, heightPx: entry.landscape ? w : h,
            legacy: false)
        let points =
            "{\(CheckedNumber.int(entry.width).map(String.init) ?? String(entry.width)), \(CheckedNumber.int(entry.height).map(String.init) ?? String(entry.height))}"
        check(path, header, [row], "its UILaunchImages entry \(points) @\(scale)x", context)
    }

    // MARK: .launchimage sets

    func evaluateSet(_ subject: Subject, _ context: EvaluationContext) {
        guard case .success(let contents)? = context.assetContents(RelativePath.join(subject.path, "Contents.json")) else { return }
        for entry in contents.images {
            guard let file = entry.filename, let idiom = entry.idiom, ["iphone", "ipad"].contains(idiom) else { continue }
            let path = RelativePath.join(subject.path, file)
            guard case .success(let facts) = context.image(path), let header = facts.header else { continue }
            let height: String =
                switch entry.subtype {
                case "retina4": "568h"
                case "667h": "667h"
                case "736h": "736h"
                case "2436h": "812h"
                case "1792h", "2688h": "896h"
                default: "-"
                }
            var candidates = expected(idiom, height, entry.orientation ?? "portrait", entry.scaleFactor ?? 1)
            if entry.extent == "to-status-bar" {
                candidates = candidates.filter(\.legacy)
            } else if entry.extent == "full-screen" {
                candidates = candidates.filter { !$0.legacy }
            }
            let what = "its slot (\(idiom) \(entry.subtype ?? "") \(entry.orientation ?? "portrait") \(entry.scale ?? "1x"))"
            check(path, header, candidates, what.replacingOccurrences(of: "  ", with: " "), context)
        }
    }

    package static let examples: [RuleExample] = {
        let png = { (w: Int, h: Int) in ExampleFile.png(PNGSpec(width: w, height: h)) }
        let iphone = ExampleTrees.config(devices: "[iphone]", target: "6.0")
        return [
            RuleExample(
                "the iPhone XR and XS Max slots of a launch image set (1792h 828x1792, 2688h 1242x2688)",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]", target: "11.0"),
                    "App/Assets.xcassets/LaunchImage.launchimage/Contents.json": .text(
                        "{\"images\":[{\"idiom\":\"iphone\",\"subtype\":\"1792h\",\"orientation\":\"portrait\",\"extent\":\"full-screen\",\"scale\":\"2x\",\"filename\":\"xr.png\"},{\"idiom\":\"iphone\",\"subtype\":\"2688h\",\"orientation\":\"portrait\",\"extent\":\"full-screen\",\"scale\":\"3x\",\"filename\":\"max.png\"}]}"
                    ),
                    "App/Assets.xcassets/LaunchImage.launchimage/xr.png": png(828, 1792),
                    "App/Assets.xcassets/LaunchImage.launchimage/max.png": png(1242, 2688),
                ], passes: ["launch.size-mismatch"]),
            RuleExample(
                "the classic iPhone set",
                files: [
                    "App/.reswatch.yaml": iphone, "App/Default.png": png(320, 480), "App/Default@2x.png": png(640, 960),
                    "App/Default-568h@2x.png": png(640, 1136), "App/Default-736h@3x.png": png(1242, 2208),
                ], passes: rules.map(\.id)),
            RuleExample(
                "a 320x460 Default.png", files: ["App/.reswatch.yaml": iphone, "App/Default.png": png(320, 460)],
                triggers: ["launch.size-mismatch"]),
            RuleExample(
                "a 1242x2208 image named -736h@2x", files: ["App/.reswatch.yaml": iphone, "App/Default-736h@2x.png": png(1242, 2208)],
                triggers: ["launch.size-mismatch"]),
            RuleExample(
                "-568h without @2x", files: ["App/.reswatch.yaml": iphone, "App/Default-568h.png": png(320, 568)],
                triggers: ["launch.bad-name"]),
            RuleExample(
                "an orientation on an iPhone-only app",
                files: ["App/.reswatch.yaml": iphone, "App/Default-Landscape@2x.png": png(960, 640)],
                triggers: ["launch.bad-name"]),
            RuleExample(
                "lower-case default.png", files: ["App/.reswatch.yaml": iphone, "App/default.png": png(320, 480)],
                triggers: ["launch.bad-name"]),
            RuleExample(
                "iPad portrait and landscape",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[ipad]", target: "6.0"),
                    "App/Default-Portrait~ipad.png": png(768, 1024), "App/Default-Landscape@2x~ipad.png": png(2048, 1536),
                ], passes: rules.map(\.id)),
            RuleExample(
                "a .launchimage entry of the wrong size",
                files: [
                    "App/.reswatch.yaml": iphone,
                    "App/Assets.xcassets/LaunchImage.launchimage/Contents.json": .text(
                        "{\"images\":[{\"idiom\":\"iphone\",\"subtype\":\"retina4\",\"orientation\":\"portrait\",\"extent\":\"full-screen\",\"scale\":\"2x\",\"filename\":\"a.png\"}]}"
                    ),
                    "App/Assets.xcassets/LaunchImage.launchimage/a.png": png(640, 960),
                ], triggers: ["launch.size-mismatch"]),
        ]
    }()
}

/// The launch image names Info.plist declares (besides "Default"), the sizes UILaunchImages
/// entries give them, and the URL schemes a launch image name may carry.
struct LaunchPlistNames {
    typealias Entry = (width: Double, height: Double, landscape: Bool)
    var bases = ["Default"]
    var entries: [String: Entry] = [:]
    let schemes: Set<String>

    init(_ context: EvaluationContext) {
        var plist: [String: PlistValue] = [:]
        if let info = context.project.infoPlist, case .success(let (value, _)) = context.plist(info) { plist = value.dictionary ?? [:] }
        for key in ["UILaunchImageFile", "UILaunchImageFile~ipad"] { if let b = plist[key]?.string { bases.append(b) } }
        // UILaunchImages entries: the size comes from the entry (points × scale), not the name.
        for e in plist["UILaunchImages"]?.array ?? [] {
            guard let n = e["UILaunchImageName"]?.string else { continue }
            bases.append(n)
            let size = e["UILaunchImageSize"]?.string.flatMap(LaunchSize.parse) ?? (320, 480)
            entries[n] = (size.width, size.height, (e["UILaunchImageOrientation"]?.string ?? "Portrait").hasPrefix("Landscape"))
        }
        schemes = Set((plist["CFBundleURLTypes"]?.array ?? []).flatMap { $0["CFBundleURLSchemes"]?.array?.compactMap(\.string) ?? [] })
    }
}
