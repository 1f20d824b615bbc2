import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `bundle.id-prefix`, `bundle.id-collision`: the bundle identifiers of what the app embeds
/// (extensions, the watch app and its extensions, the App Clip), as their targets resolve
/// `PRODUCT_BUNDLE_IDENTIFIER` in the configuration that ships (requirements-2026.md 3.4, 3.5,
/// VERIFIED). An identifier that is not known (an unresolved `$(…)`, a modifier, settings not all
/// read) is not judged.
package struct BundleIdentifiersKind: RuleKind {
    package static let name = "bundle-identifiers"
    package static let summary =
        "Checks that each extension, watch app and App Clip has its app's bundle identifier plus one component, and that no two share one (ITMS-90685)."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let prefix = RuleInfo(
        id: "bundle.id-prefix", severity: .error,
        summary:
            "An extension, watch app or App Clip whose resolved PRODUCT_BUNDLE_IDENTIFIER is not its app's identifier plus one component.",
        rationale:
            "App Store Connect: \"Bad bundle identifier. The bundle identifier '…' of the application extension … should start with the application's bundle identifier '…' and not contain more than one period '.' after the application's bundle ID\"; Xcode refuses to embed it (requirements-2026.md 3.4).",
        fix: "Set the target's PRODUCT_BUNDLE_IDENTIFIER to the app's identifier, a period, and one word (com.example.app.widget).")
    package static let collision = RuleInfo(
        id: "bundle.id-collision", severity: .error, code: "ITMS-90685",
        summary: "Two bundles the app embeds (or the app and one of them) resolve to the same PRODUCT_BUNDLE_IDENTIFIER.",
        rationale:
            "App Store Connect: \"CFBundleIdentifier Collision. There is more than one bundle with the CFBundleIdentifier value '…' under the iOS application '…'\" (ITMS-90685; requirements-2026.md 3.5).",
        fix: "Give each embedded target an identifier of its own (the app's plus a distinct component).")
    package static let rules = [prefix, collision]

    package init(parameters: ModuleParameters) {}

    /// A target and the identifier it resolves to (nil: not known).
    struct Identified {
        let name: String
        let kind: String
        let id: String?
        let settings: ResolvedBuildSettings?
        let isParent: Bool
        let isEmbedded: Bool
    }

    static let embeddedTypes = [
        "com.apple.product-type.app-extension", "com.apple.product-type.extensionkit-extension", ResolvedTarget.appClipType,
        "com.apple.product-type.application.watchapp2", "com.apple.product-type.watchkit2-extension",
    ]

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard subject.path == project.directory, project.noAppReason == nil, let app = project.targetName,
            let appID = BundleIdentifier.of(project.appSettings, incomplete: project.buildSettingsIncomplete)
        else { return }
        var targets = [Identified(name: app, kind: "app", id: appID, settings: project.appSettings, isParent: true, isEmbedded: false)]
        var embedding: [String: Embedding] = [:]
        for target in project.otherTargets where [.iOS, .watchOS, .unknown].contains(target.platform) {
            let embedded = Self.embeddedTypes.contains(target.productType)
            let parent =
                target.productType.hasPrefix("com.apple.product-type.application") && target.productType != ResolvedTarget.appClipType
            guard embedded || parent, target.settings != nil else { continue }
            // A product no target embeds ships in no app: nothing to judge its identifier against.
            if embedded {
                embedding[target.name] = project.embedding(of: target)
                if embedding[target.name] == .nowhere { continue }
            }
            targets.append(
                Identified(
                    name: target.name, kind: target.kind, id: BundleIdentifier.of(target.settings, incomplete: target.settingsIncomplete),
                    settings: target.settings, isParent: parent || target.productType.contains("watchapp2"), isEmbedded: embedded))
        }
        let byName = Dictionary(targets.map { ($0.name, $0) }) { a, _ in a }
        let parents = targets.filter(\.isParent).compactMap(\.id)
        let parentNames = Dictionary(targets.filter(\.isParent).compactMap { t in t.id.map { ($0, t.name) } }) { a, _ in a }
        for target in targets where target.isEmbedded {
            guard let id = target.id else { continue }
            // The bundle that embeds it, when the project says (a widget of a WatchKit extension
            // is that extension's identifier plus one component); else any app or watch app.
            let parent: (id: String, name: String)?
            switch embedding[target.name] {
            case .app: parent = (appID, app)
            case .target(let other):
                guard let otherID = byName[other.name]?.id ?? BundleIdentifier.of(other.settings, incomplete: other.settingsIncomplete)
                else { continue }
                parent = (otherID, other.name)
            default: parent = nil
            }
            let candidates = parent.map { [$0.id] } ?? parents
            let fits = candidates.contains { parent in
                id.hasPrefix(parent + ".") && !id.dropFirst(parent.count + 1).isEmpty && !id.dropFirst(parent.count + 1).contains(".")
            }
            guard !fits else { continue }
            let (path, line) = place(target, context)
            // The parent it was meant for: the longest identifier it starts with, else the app.
            let meant =
                parent ?? (parents.filter { id.hasPrefix($0 + ".") }.max { $0.count < $1.count }).map { ($0, parentNames[$0] ?? app) }
            let (parentID, parentName) = meant ?? (appID, app)
            context.report(
                Self.prefix, path: path, line: line,
                message:
                    "\(target.name) (\(target.kind)): PRODUCT_BUNDLE_IDENTIFIER is \(id), which is not \(parentName)'s identifier \(parentID) plus one component"
            )
        }
        reportCollisions(targets, embedding: embedding, project: project, context: context)
    }

    /// Collisions among what one app ships: judged per app when the project says which app embeds
    /// what; otherwise when the project builds one iOS app (with two, which embeds which is not known).
    func reportCollisions(
        _ targets: [Identified], embedding: [String: Embedding], project: ProjectContext, context: EvaluationContext
    ) {
        let known = embedding.values.allSatisfy { $0 != .unknown }
        guard known || project.appTargets.count <= 1 else { return }
        // The app each embedded bundle ships in: the context's app, or another app of the project.
        func shipper(_ target: Identified) -> String? {
            guard known, let other = project.otherTargets.first(where: { $0.name == target.name }) else { return targets[0].name }
            switch project.shippingApp(of: other) {
            case .app: return targets[0].name
            case .target(let app): return app.name
            default: return nil
            }
        }
        var seen: [String: [String: Identified]] = [:]
        for target in targets where !target.isEmbedded && !target.kind.contains("watch") {
            if let id = target.id { seen[target.name] = [id: target] }
        }
        for target in targets where target.isEmbedded {
            guard let id = target.id, let app = shipper(target), seen[app] != nil else { continue }
            if let first = seen[app]?[id] {
                let (path, line) = place(target, context)
                context.report(
                    Self.collision, path: path, line: line,
                    message:
                        "\(target.name) (\(target.kind)) and \(first.name) both have the bundle identifier \(id) (PRODUCT_BUNDLE_IDENTIFIER)"
                )
            } else {
                seen[app]?[id] = target
            }
        }
    }

    /// Where the target's PRODUCT_BUNDLE_IDENTIFIER is written: its file and line.
    func place(_ target: Identified, _ context: EvaluationContext) -> (String, Int?) {
        SettingLine.place(of: "PRODUCT_BUNDLE_IDENTIFIER", in: target.settings, context: context)
    }
}

extension BundleIdentifiersKind {
    package static let examples: [RuleExample] = {
        let app = { (appID: String, shareID: String) -> [String: ExampleFile] in
            BundleKeysKind.app(
                extensionKeys: BundleKeysKind.goodKeys, appExtra: "PRODUCT_BUNDLE_IDENTIFIER = \(appID);",
                extensionExtra: "PRODUCT_BUNDLE_IDENTIFIER = \(shareID);")
        }
        return [
            RuleExample(
                "the app's identifier plus one component", files: app("com.example.app", "com.example.app.share"), passes: rules.map(\.id)),
            RuleExample(
                "an extension with two components after the app's", files: app("com.example.app", "com.example.app.share.ui"),
                triggers: ["bundle.id-prefix"]),
            RuleExample(
                "an extension outside the app's identifier", files: app("com.example.app", "com.example.share"),
                triggers: ["bundle.id-prefix"]),
            RuleExample(
                "an extension with the app's own identifier", files: app("com.example.app", "com.example.app"),
                triggers: ["bundle.id-prefix", "bundle.id-collision"]),
            RuleExample(
                "two apps of one project, each embedding its own extension, watch app (its WatchKit extension a widget) and App Clip",
                files: EmbeddingExamples.twoApps(), passes: rules.map(\.id)),
            RuleExample(
                "an extension the Dev app embeds with an identifier under the Prod app's",
                files: EmbeddingExamples.twoApps(ids: ["DevShare": "com.example.app.share2"]), triggers: ["bundle.id-prefix"]),
            RuleExample(
                "two bundles one app of two embeds with one identifier",
                files: EmbeddingExamples.twoApps(ids: ["DevShare": "com.example.app.dev.Clip"]), triggers: ["bundle.id-collision"]),
            RuleExample(
                "an identifier from a setting no file read defines is not judged",
                files: app("com.example.app", "\"$(SHARE_BUNDLE_ID)\""), passes: rules.map(\.id)),
        ]
    }()
}
