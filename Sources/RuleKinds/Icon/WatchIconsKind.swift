import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `icon.watch-marketing-missing`, `icon.watch-alpha`: a watch app's icon set as App Store
/// Connect checks it. Pixel sizes of watch slots (size × scale, as actool computes them) are
/// `icon.size-mismatch`, judged by `appicon-set` for every idiom. Sources:
/// ITMS wording (ITMS-90719, ITMS-90396) and the Asset Catalog Format Reference (watch slots),
/// modern-apple-resources.md §3 (RevenueCat/purchases-ios PR #2705).
package struct WatchIconsKind: RuleKind {
    package static let name = "watch-icons"
    package static let summary = "Checks a watch app's icon set: the 1024 App Store icon, and no alpha channel in any watch icon."
    package static let subjects: Set<SubjectKind> = [.assetSet]

    package static let marketingMissing = RuleInfo(
        id: "icon.watch-marketing-missing", severity: .error, code: "ITMS-90719",
        summary:
            "A watch app's icon set has no 1024x1024 App Store icon (a watch-marketing entry, or a single-size watchOS 1024 entry) with its file.",
        rationale:
            "App Store Connect: \"Missing App Store Icon. WatchOS Apps must include a 1024x1024px App Store Icon in PNG format.\" (ITMS-90719)",
        fix: "Add a 1024x1024 PNG without alpha to the set's watch App Store slot (or make the set a single-size watchOS 1024 set).")
    package static let alpha = RuleInfo(
        id: "icon.watch-alpha", severity: .error, code: "ITMS-90396",
        summary:
            "A watch app icon (any size, not only the 1024) has an alpha channel (colour type 4/6 or a tRNS chunk), even if every pixel is opaque.",
        rationale:
            "App Store Connect: \"Invalid Icon. The watch application … contains an icon file … with an alpha channel. Icons should not have an alpha channel.\" (ITMS-90396)",
        fix: "Re-export the icon as RGB without alpha (e.g. `convert in.png -background black -alpha remove -alpha off out.png`).")

    package static let rules = [marketingMissing, alpha]

    package init(parameters: ModuleParameters) {}

    package func applies(to subject: Subject) -> Bool { RelativePath.hasSuffix(subject.path, ".appiconset") }

    static func isWatchEntry(_ e: AssetImageEntry) -> Bool {
        e.idiom == "watch" || e.idiom == "watch-marketing" || (e.idiom == "universal" && e.platform == "watchos")
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard case .success(let contents)? = context.assetContents(RelativePath.join(subject.path, "Contents.json")),
            contents.images.contains(where: Self.isWatchEntry), isShippedWatchIcon(subject.path, contents, in: context)
        else { return }
        let setName = RelativePath.name(subject.path)
        let files = Set(((try? context.list(subject.path).get()) ?? []).filter { !$0.isDirectory }.map(\.name))
        let isMarketing: (AssetImageEntry) -> Bool = {
            ($0.idiom == "watch-marketing" || ($0.idiom == "universal" && $0.platform == "watchos")) && $0.points?.width == 1024
                && $0.appearances.isEmpty
        }
        // A named file that is missing is icon.file-missing already: it counts as the slot's.
        if !contents.images.contains(where: { isMarketing($0) && $0.filename != nil }) {
            context.report(
                Self.marketingMissing, path: RelativePath.join(subject.path, "Contents.json"),
                line: contents.images.first { $0.idiom == "watch-marketing" }?.line ?? 1,
                message: "watch app icon set \(setName) has no 1024x1024 App Store icon (watch-marketing)")
        }
        for entry in contents.images where Self.isWatchEntry(entry) {
            // The watch-marketing 1024's alpha is icon.marketing-alpha (ITMS-90717), one finding.
            guard entry.idiom != "watch-marketing", let name = entry.filename, files.contains(name) else { continue }
            let path = RelativePath.join(subject.path, name)
            guard case .success(let facts) = context.image(path), let header = facts.header, header.hasAlpha, !header.isCgBI else {
                continue
            }
            let how = header.colorType?.hasAlphaChannel == true ? "colour type \(header.rawColorType)" : "a tRNS chunk"
            context.report(
                Self.alpha, path: path, message: "watch app icon \(name) has an alpha channel (\(how))",
                related: [RelativePath.join(subject.path, "Contents.json")])
        }
    }

    /// A set a watch app ships: in a watchOS app target's folder and named by its
    /// ASSETCATALOG_COMPILER_APPICON_NAME (when that is known); or, when no Xcode project was
    /// read, a set of watch icons only. Sets of extensions (a watch widget's) and sets of iOS apps
    /// that also list watch slots (generators write "everything" sets) are not.
    func isShippedWatchIcon(_ path: String, _ contents: AssetContents, in context: EvaluationContext) -> Bool {
        let name = String(RelativePath.name(path).dropLast(".appiconset".count))
        if let owner = context.project.otherTarget(containing: path) {
            guard owner.platform == .watchOS, !owner.productType.contains("extension") else { return false }
            guard let icon = owner.appIconName, !icon.contains("$") else { return true }
            return icon == name
        }
        guard context.project.targetName == nil else { return false }
        return contents.images.allSatisfy(Self.isWatchEntry)
    }
}
