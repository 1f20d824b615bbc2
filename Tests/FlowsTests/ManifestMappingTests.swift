import Foundation
import RuleEngine
import TestSupport
import Testing

/// Every anomaly row of ../shared/corpus/MANIFEST.md, mapped by its wording to the rule that must
/// report it at that path — or to the reason no rule of rules.md covers it.
@Suite(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
struct ManifestMappingTests {
    struct Anomaly: Sendable, CustomStringConvertible {
        let app: String
        let path: String
        let category: String
        let observation: String
        var description: String { "\(app): \(path) — \(observation)" }
    }

    static let anomalies: [Anomaly] = {
        guard let text = try? String(contentsOfFile: Repo.corpus + "/MANIFEST.md", encoding: .utf8) else { return [] }
        var out: [Anomaly] = []
        var app = ""
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { app = String(line.dropFirst(3)); inTable = false }
            if line.hasPrefix("**Anomaly table**") { inTable = true; continue }
            guard inTable, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            out.append(
                Anomaly(
                    app: app, path: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), category: cells[2],
                    observation: cells[3]))
        }
        return out
    }()

    /// The rule for an anomaly, or nil with the reason none applies.
    static func rule(for a: Anomaly) -> (String?, String) {
        let o = a.observation
        let inIconSet = a.path.contains(".appiconset/")
        if o.hasPrefix("not-a-PNG (AppleDouble") {
            return (nil, "__MACOSX/._* files are a zip's macOS metadata, not app resources: never checked")
        }
        if o.hasPrefix("not-a-PNG") { return ("image.not-png", "") }
        if o.hasPrefix("CgBI") { return ("image.cgbi", "") }
        if o.hasPrefix("interlaced") { return ("image.interlaced", "") }
        if o.hasPrefix("16-bit") { return ("image.16-bit", "") }
        if o.hasPrefix("grayscale") { return ("image.not-rgb", "") }
        if o.hasPrefix("palette") {
            return inIconSet
                ? ("image.indexed", "") : (nil, "palette images are legal outside app icons (rules.md: image.indexed is for app icons)")
        }
        if o.hasPrefix("alpha channel in iTunesArtwork") {
            return (nil, "rules.md has no alpha rule for iTunesArtwork (icon.itunesartwork covers name and size)")
        }
        if o.hasPrefix("alpha channel in") {
            // App extensions' icon sets (their Info.plist has NSExtension): no App Store icon, and
            // an action extension's icon is a template whose alpha is its shape.
            if ["OpenAction/", "IceCubesActionExtension/", "Widget/"].contains(where: a.path.hasPrefix) {
                return (nil, "an app extension's icon is no App Store icon (ITMS-90717 concerns the app's and watch apps')")
            }
            if a.app == "HomeAssistant", a.path.hasPrefix("WatchApp/Assets.xcassets/") {
                return (
                    nil, "the legacy WatchApp/Assets.xcassets (MANIFEST) is bundled by no target: no product ships it (project.left-out)"
                )
            }
            return ("icon.marketing-alpha", "")
        }
        if o.hasPrefix("listed in Contents.json but file missing") {
            return inIconSet
                ? ("icon.file-missing", "")
                : (nil, "icon.file-missing is about app icon sets; rules.md has no id for missing files of image/launch-image sets")
        }
        if o.hasPrefix("file in set folder not referenced") {
            return inIconSet ? ("icon.unassigned", "") : (nil, "a stray file in an .imageset is not an icon rule")
        }
        if o.hasPrefix("size mismatch: Contents.json") { return ("icon.size-mismatch", "") }
        if o.hasPrefix("app icon set has no image assigned") {
            // Both rows are widget extensions' catalogs (the pbxproj's INFOPLIST_FILE puts the
            // extension target there): an extension ships no app icon, so no requirement applies.
            return (nil, "an app extension's AppIcon set is not the app's icon set: no app icon requirement")
        }
        if o.contains("names \"") && o.contains("no matching loose file") { return ("plist.invalid-image-path", "") }
        if o.hasPrefix("UILaunchImageFile") || o.hasPrefix("UILaunchImages entry") { return ("launch.size-mismatch", "") }
        if o.hasPrefix("lower-case legacy launch image name") { return ("launch.bad-name", "") }
        if o.hasPrefix("loose file name implies") { return ("icon.itunesartwork", "") }
        if o.hasPrefix("same file referenced by") {
            return (nil, "one image filling several slots of the right size is legal (MANIFEST: info)")
        }
        if o.hasPrefix("file name says @") {
            return (nil, "a file's name does not bind it to a scale; its pixel size is checked against the slot instead")
        }
        if o.hasPrefix("PNG data in a file without .png extension") { return (nil, "that is how iTunesArtwork must be named (QA1686)") }
        if o.hasPrefix("brandassets") || o.hasPrefix("launchimage slot holds a jpeg") {
            return (nil, "tvOS brand assets are outside rules.md (iOS resources)")
        }
        return (nil, "UNMAPPED")
    }

    @Test func everyAnomalyIsMapped() {
        // The apps table of MANIFEST.md sums to 185 anomaly rows.
        #expect(Self.anomalies.count == 185, "parsed \(Self.anomalies.count) rows of MANIFEST.md")
        for a in Self.anomalies {
            #expect(Self.rule(for: a).1 != "UNMAPPED", "no mapping for \(a)")
        }
    }

    @Test(arguments: CorpusTests.apps)
    func everyMappedAnomalyIsReported(_ app: String) throws {
        let mine = Self.anomalies.filter { $0.app == app && Self.rule(for: $0).0 != nil }
        guard !mine.isEmpty else { return }
        let found = try CorpusTests.diagnostics(app)
        for a in mine {
            let rule = Self.rule(for: a).0!
            #expect(found.contains { $0["rule"] as? String == rule && CorpusTests.concerns($0, a.path) }, "\(a) should give \(rule)")
        }
    }
}
