import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `launch.asset-missing`: the launch screen shows colours and images by name, from the app's
/// asset catalogs; a name no catalog has leaves the launch screen blank or black
/// (requirements-2026.md 6.5, VERIFIED by demand). Judged: `UILaunchScreen`'s `UIColorName` and
/// `UIImageName` (and its bars' `UIImageName`), and the named colours and images a launch
/// storyboard declares in its `<resources>` (SF Symbols, `catalog="system"`, aside).
package struct LaunchAssetsKind: RuleKind {
    package static let name = "launch-assets"
    package static let summary = "Checks that the colours and images the launch screen names are in the app's asset catalogs."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let missing = RuleInfo(
        id: "launch.asset-missing", severity: .warning,
        summary:
            "A launch storyboard's named colour or image, or UILaunchScreen's UIColorName/UIImageName, that no asset catalog of the app has.",
        rationale:
            "iOS draws the launch screen from the names it is given; one that resolves to nothing shows as a blank or black launch screen (requirements-2026.md 6.5).",
        fix: "Add the colour set or image set of that name to the app's catalog, or fix the name.")
    package static let rules = [missing]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        // An app whose Info.plist Xcode generates whole is judged on its project (AppInfoPlist).
        guard let app = AppInfoPlist.of(subject, in: context), app.dict["NSExtension"] == nil else { return }
        let dict = app.dict
        let catalogs = context.subjects(.catalog).map(\.path).filter { c in
            !project.resourcesKnown || project.ownedPaths.contains { RelativePath.isWithin(c, $0) }
        }
        guard !catalogs.isEmpty else { return }  // no catalog in the tree (a partial checkout): not judged
        var sets = Set<String>()
        var budget = 4096
        for catalog in catalogs { Self.collectSets(in: catalog, context: context, depth: 0, budget: &budget, into: &sets) }
        guard budget > 0 else { return }  // a catalog too large to list here: not guessed
        let looseImages = Set(context.subjects(.image).map { BaseName.of(RelativePath.name($0.path)) })
        // UILaunchScreen (and its device variants).
        for key in ["UILaunchScreen", "UILaunchScreen~iphone", "UILaunchScreen~ipad"] {
            guard let screen = dict[key]?.dictionary else { continue }
            var names: [(String, String, Bool)] = []  // (where, name, isColour)
            if let c = screen["UIColorName"]?.string { names.append(("\(key).UIColorName", c, true)) }
            if let i = screen["UIImageName"]?.string { names.append(("\(key).UIImageName", i, false)) }
            for bar in ["UINavigationBar", "UITabBar", "UIToolbar"] {
                if let i = screen[bar]?["UIImageName"]?.string { names.append(("\(key).\(bar).UIImageName", i, false)) }
            }
            for (place, name, isColour) in names where !name.isEmpty && !name.contains("$(") {
                guard !Self.found(name, isColour: isColour, sets: sets, loose: looseImages) else { continue }
                app.report(
                    Self.missing, in: context, key: key,
                    message: "\(place) is \"\(name)\", which no asset catalog of the app has as a \(isColour ? "colour" : "image") set")
            }
        }
        // The launch storyboard(s) the app names.
        let storyboards = ["UILaunchStoryboardName", "UILaunchStoryboardName~iphone", "UILaunchStoryboardName~ipad"].compactMap {
            dict[$0]?.string
        }
        guard !storyboards.isEmpty else { return }
        for file in context.subjects(.interfaceFile).map(\.path)
        where storyboards.contains(BaseName.of(RelativePath.name(file))) && file.hasSuffix(".storyboard")
            // Another app's storyboard of the same name (a Dev and a Prod app) is that app's.
            && (!project.resourcesKnown || project.ownedPaths.contains { RelativePath.isWithin(file, $0) })
        {
            guard case .success(let bytes) = context.read(file) else { continue }
            for (name, isColour, line) in Self.resources(String(decoding: bytes.prefix(1 << 20), as: UTF8.self)) {
                guard !Self.found(name, isColour: isColour, sets: sets, loose: looseImages) else { continue }
                context.report(
                    Self.missing, path: file, line: line,
                    message:
                        "the launch storyboard uses the \(isColour ? "colour" : "image") \"\(name)\", which no asset catalog of the app has"
                )
            }
        }
    }

    static func found(_ name: String, isColour: Bool, sets: Set<String>, loose: Set<String>) -> Bool {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        if isColour { return sets.contains(last + ".colorset") }
        return sets.contains(last + ".imageset") || loose.contains(last) || loose.contains(name)
    }

    /// The set folders of a catalog and its groups (bounded).
    static func collectSets(in folder: String, context: EvaluationContext, depth: Int, budget: inout Int, into sets: inout Set<String>) {
        guard depth < 6, budget > 0, case .success(let entries) = context.list(folder) else { return }
        budget -= entries.count
        for e in entries where e.isDirectory {
            if e.name.hasSuffix(".colorset") || e.name.hasSuffix(".imageset") {
                sets.insert(e.name)
            } else if !e.name.contains(".") {
                collectSets(in: RelativePath.join(folder, e.name), context: context, depth: depth + 1, budget: &budget, into: &sets)
            }
        }
    }

    /// `<image name="X" …/>` (not `catalog="system"`) and `<namedColor name="X">` of a storyboard's
    /// `<resources>`, with their lines.
    static func resources(_ xml: String) -> [(String, Bool, Int)] {
        guard let start = xml.range(of: "<resources>") else { return [] }
        let end = xml[start.upperBound...].range(of: "</resources>")?.lowerBound ?? xml.endIndex
        var out: [(String, Bool, Int)] = []
        var line = xml[..<start.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        for row in xml[start.lowerBound..<end].split(separator: "\n", omittingEmptySubsequences: false) {
            defer { line += 1 }
            let trimmed = row.drop { $0 == " " || $0 == "\t" }
            let isColour = trimmed.hasPrefix("<namedColor ")
            guard isColour || trimmed.hasPrefix("<image "), !trimmed.contains("catalog=\"system\""),
                let r = trimmed.range(of: "name=\"")
            else { continue }
            let name = trimmed[r.upperBound...].prefix { $0 != "\"" }
            if !name.isEmpty { out.append((String(name), isColour, line)) }
        }
        return out
    }

    package static let examples: [RuleExample] = {
        let catalog: [String: ExampleFile] = [
            "App/Assets.xcassets/Contents.json": .text("{\"info\":{\"version\":1,\"author\":\"xcode\"}}"),
            "App/Assets.xcassets/Brand.colorset/Contents.json": .text("{\"colors\":[{\"idiom\":\"universal\"}]}"),
            "App/Assets.xcassets/Logo.imageset/Contents.json": .text("{\"images\":[{\"idiom\":\"universal\"}]}"),
        ]
        let screen = { (color: String, image: String) in
            ExampleTrees.plist(
                "<key>UILaunchScreen</key><dict><key>UIColorName</key><string>\(color)</string><key>UIImageName</key><string>\(image)</string></dict>"
            )
        }
        let storyboard = { (color: String, image: String) in
            ExampleFile.text(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" launchScreen="YES">
                    <scenes/>
                    <resources>
                        <image name="\(image)" width="120" height="120"/>
                        <image name="star.fill" catalog="system" width="128" height="124"/>
                        <namedColor name="\(color)"><color red="0" green="0" blue="0" alpha="1" colorSpace="custom"/></namedColor>
                    </resources>
                </document>
                """)
        }
        return [
            RuleExample(
                "UILaunchScreen's colour and image are in the catalog",
                files: catalog.merging(["App/Info.plist": screen("Brand", "Logo")]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample(
                "UILaunchScreen names a colour and an image the catalog lacks",
                files: catalog.merging(["App/Info.plist": screen("LaunchBackground", "Splash")]) { a, _ in a },
                triggers: ["launch.asset-missing"]),
            RuleExample(
                "a launch storyboard whose resources are in the catalog",
                files: catalog.merging([
                    "App/Info.plist": ExampleTrees.plist("<key>UILaunchStoryboardName</key><string>LaunchScreen</string>"),
                    "App/Base.lproj/LaunchScreen.storyboard": storyboard("Brand", "Logo"),
                ]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample(
                "a launch storyboard using a colour the catalog lacks",
                files: catalog.merging([
                    "App/Info.plist": ExampleTrees.plist("<key>UILaunchStoryboardName</key><string>LaunchScreen</string>"),
                    "App/Base.lproj/LaunchScreen.storyboard": storyboard("Background", "Logo"),
                ]) { a, _ in a }, triggers: ["launch.asset-missing"]),
        ]
    }()
}
