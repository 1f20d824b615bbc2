import Findings
import RuleKit
import SystemCalls

/// `icon.itunesartwork`: iTunesArtwork files follow QA1686, Tables 1/3/5.
package struct ITunesArtworkKind: RuleKind {
    package static let name = "itunes-artwork"
    package static let summary = "Checks iTunesArtwork files: not for App Store builds, no extension, 512x512 (@2x 1024x1024)."
    package static let subjects: Set<SubjectKind> = [.image]

    package static let artwork = RuleInfo(
        id: "icon.itunesartwork", severity: .warning,
        summary:
            "iTunesArtwork present for App Store distribution (\"Do not include\"), named with an extension, or not 512x512 (@2x 1024x1024).",
        rationale:
            "QA1686: iTunesArtwork is for Ad Hoc builds only (\"Do not include\" for the App Store), \"should be in png format, but name them without the .png extension\", 512x512 / 1024x1024.",
        fix:
            "Leave iTunesArtwork out of App Store builds; for Ad Hoc, name it iTunesArtwork / iTunesArtwork@2x without extension at 512 / 1024 px."
    )
    package static let rules = [artwork]

    package init(parameters: ModuleParameters) {}

    package func applies(to subject: Subject) -> Bool {
        RelativePath.withBytes(of: subject.path) { RelativePath.hasPrefix(RelativePath.name(in: $0), "itunesartwork", ignoringCase: true) }
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let name = RelativePath.name(subject.path)
        guard name.lowercased().hasPrefix("itunesartwork"),
            SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(RelativePath.parent(subject.path))) == nil
        else { return }
        if context.project.distribution == .appStore {
            context.report(
                Self.artwork, path: subject.path,
                message: "\(name) is for Ad Hoc distribution; QA1686 says \"Do not include\" it in App Store builds")
        }
        if name.lowercased().hasSuffix(".png") {
            context.report(Self.artwork, path: subject.path, message: "\(name) is named with an extension; iTunesArtwork must have none")
        }
        // Its name has no extension by design: content that is not PNG is fixed by re-exporting
        // as PNG under the same name (image.not-png would say to rename it, which is wrong here).
        if !name.contains("."), case .success(let facts) = context.image(subject.path), facts.kind != .png {
            context.report(
                Self.artwork, severity: .error, path: subject.path,
                message: "\(name) is \(facts.kind == .empty ? "empty" : "\(facts.kind.displayName) data"), not PNG",
                fix: "Export the artwork as PNG and keep the name \(name), without an extension (QA1686).")
            return
        }
        let retina = name.lowercased().contains("@2x")
        let expected = retina ? 1024 : 512
        if case .success(let facts) = context.image(subject.path), let h = facts.header, h.width != expected || h.height != expected {
            context.report(
                Self.artwork, path: subject.path, message: "\(name) is \(h.width)x\(h.height) but should be \(expected)x\(expected)")
        }
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "Ad Hoc artwork, right names and sizes",
            files: [
                "App/.reswatch.yaml": ExampleTrees.config(extra: "distribution: ad-hoc\n"),
                "App/iTunesArtwork": ExampleTrees.png(512), "App/iTunesArtwork@2x": ExampleTrees.png(1024),
            ], passes: ["icon.itunesartwork"]),
        RuleExample(
            "iTunesArtwork in an App Store build",
            files: ["App/.reswatch.yaml": ExampleTrees.config(), "App/iTunesArtwork": ExampleTrees.png(512)],
            triggers: ["icon.itunesartwork"]),
        RuleExample(
            "1024x1024 named iTunesArtwork (should be @2x)",
            files: [
                "App/.reswatch.yaml": ExampleTrees.config(extra: "distribution: ad-hoc\n"), "App/iTunesArtwork": ExampleTrees.png(1024),
            ], triggers: ["icon.itunesartwork"]),
        RuleExample(
            "iTunesArtwork.png with an extension",
            files: [
                "App/.reswatch.yaml": ExampleTrees.config(extra: "distribution: ad-hoc\n"), "App/iTunesArtwork.png": ExampleTrees.png(512),
            ], triggers: ["icon.itunesartwork"]),
        RuleExample(
            "JPEG data in an extensionless iTunesArtwork is this rule's finding, not image.not-png",
            files: [
                "App/.reswatch.yaml": ExampleTrees.config(extra: "distribution: ad-hoc\n"),
                "App/iTunesArtwork": .bytes([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46]),
            ], triggers: ["icon.itunesartwork"], passes: ["image.not-png"]),
    ]
}
