import Findings
import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// Every row of QA1686's icon tables (seed 000), transcribed here independently of
/// rules/icon.yaml, as loose legacy files: the right file at the right size passes, one pixel
/// off fails with icon.size-mismatch, absent fails with icon.missing-required exactly when the table
/// says Required. (Seed typo followed as the facts say: 87x87 is Icon-Small@3x.png.)
@Suite struct SeedIconTableTests {
    struct Row: Sendable {
        let file: String
        let px: Int
        let required: Bool
    }
    struct Table: Sendable, CustomStringConvertible {
        let name: String  // iphone | ipad | universal
        let legacy: Bool  // Tables 2/4/6: deployment target 6.1 or earlier, in addition to 1/3/5
        let rows: [Row]
        var description: String { "\(name) \(legacy ? "≤ 6.1" : "≥ 7")" }
    }

    static let t1 = [
        Row(file: "Icon-60@2x.png", px: 120, required: true), Row(file: "Icon-60@3x.png", px: 180, required: false),
        Row(file: "Icon-76.png", px: 76, required: false), Row(file: "Icon-76@2x.png", px: 152, required: false),
        Row(file: "Icon-Small-40.png", px: 40, required: false), Row(file: "Icon-Small-40@2x.png", px: 80, required: false),
        Row(file: "Icon-Small-40@3x.png", px: 120, required: false), Row(file: "Icon-Small.png", px: 29, required: false),
        Row(file: "Icon-Small@2x.png", px: 58, required: false), Row(file: "Icon-Small@3x.png", px: 87, required: false),
    ]
    static let t2 = [
        Row(file: "Icon.png", px: 57, required: true), Row(file: "Icon@2x.png", px: 114, required: false),
        Row(file: "Icon-72.png", px: 72, required: false), Row(file: "Icon-72@2x.png", px: 144, required: false),
        Row(file: "Icon-Small.png", px: 29, required: false), Row(file: "Icon-Small@2x.png", px: 58, required: false),
        Row(file: "Icon-Small-50.png", px: 50, required: false), Row(file: "Icon-Small-50@2x.png", px: 100, required: false),
    ]
    static let t3 = [
        Row(file: "Icon-76.png", px: 76, required: true), Row(file: "Icon-76@2x.png", px: 152, required: false),
        Row(file: "Icon-Small-40.png", px: 40, required: false), Row(file: "Icon-Small-40@2x.png", px: 80, required: false),
        Row(file: "Icon-Small.png", px: 29, required: false), Row(file: "Icon-Small@2x.png", px: 58, required: false),
    ]
    static let t4 = [
        Row(file: "Icon-72.png", px: 72, required: true), Row(file: "Icon-72@2x.png", px: 144, required: false),
        Row(file: "Icon-Small-50.png", px: 50, required: false), Row(file: "Icon-Small-50@2x.png", px: 100, required: false),
    ]
    static let t5 = [
        Row(file: "Icon-60@2x.png", px: 120, required: true), Row(file: "Icon-60@3x.png", px: 180, required: false),
        Row(file: "Icon-76.png", px: 76, required: true), Row(file: "Icon-76@2x.png", px: 152, required: false),
        Row(file: "Icon-Small-40.png", px: 40, required: false), Row(file: "Icon-Small-40@2x.png", px: 80, required: false),
        Row(file: "Icon-Small-40@3x.png", px: 120, required: false), Row(file: "Icon-Small.png", px: 29, required: false),
        Row(file: "Icon-Small@2x.png", px: 58, required: false), Row(file: "Icon-Small@3x.png", px: 87, required: false),
    ]
    static let t6 = [
        Row(file: "Icon.png", px: 57, required: true), Row(file: "Icon@2x.png", px: 114, required: false),
        Row(file: "Icon-72.png", px: 72, required: true), Row(file: "Icon-72@2x.png", px: 144, required: false),
        Row(file: "Icon-Small.png", px: 29, required: false), Row(file: "Icon-Small@2x.png", px: 58, required: false),
        Row(file: "Icon-Small-50.png", px: 50, required: false), Row(file: "Icon-Small-50@2x.png", px: 100, required: false),
    ]
    static let tables = [
        Table(name: "iphone", legacy: false, rows: t1), Table(name: "iphone", legacy: true, rows: t2),
        Table(name: "ipad", legacy: false, rows: t3), Table(name: "ipad", legacy: true, rows: t4),
        Table(name: "universal", legacy: false, rows: t5), Table(name: "universal", legacy: true, rows: t6),
    ]

    /// Rows in force: the modern table, plus the legacy one for a 6.1 target ("both tables apply"),
    /// with App Store Connect's later requirements for apps that run on iPad, which supersede the
    /// seed where they differ (rules/icon.yaml, source: app-store-connect; ITMS-90023): the
    /// 152 icon is required, and the iPad Pro 167 icon is added (as Icon-83.5@2x.png).
    static func inForce(_ t: Table) -> [Row] {
        let modern = tables.first { $0.name == t.name && !$0.legacy }!.rows
        var rows = t.legacy ? modern + t.rows : modern
        if t.name != "iphone" {
            rows = rows.map { $0.px == 152 ? Row(file: $0.file, px: 152, required: true) : $0 }
            rows.append(Row(file: "Icon-83.5@2x.png", px: 167, required: true))
        }
        return rows
    }

    func project(_ t: Table, files: [String: Int]) -> [String: ExampleFile] {
        let devices = t.name == "iphone" ? "[iphone]" : (t.name == "ipad" ? "[ipad]" : "[iphone, ipad]")
        var tree: [String: ExampleFile] = [
            "App/.reswatch.yaml": .text("devices: \(devices)\ndeployment-target: \"\(t.legacy ? "6.1" : "8.0")\"\n")
        ]
        var names = Set<String>()
        for (file, px) in files {
            tree["App/Icons/\(file)"] = .png(PNGSpec(width: px, height: px))
            names.insert(String(file.dropLast(4)).replacingOccurrences(of: "@2x", with: "").replacingOccurrences(of: "@3x", with: ""))
        }
        let listed = names.sorted().map { "<string>\($0)</string>" }.joined()
        tree["App/Info.plist"] = .text(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIconFiles</key><array>\(listed)</array></dict></plist>\n"
        )
        return tree
    }

    /// The icon findings of the tables (not icon.marketing-missing: a loose-icon App Store build
    /// has no App Store icon, which must come from an asset catalog; LegacyIconsKind's examples
    /// assert that).
    func diagnostics(_ files: [String: ExampleFile]) throws -> [Diagnostic] {
        try TempTree(files).engine().diagnostics.filter {
            ($0.rule.hasPrefix("icon.") && $0.rule != "icon.marketing-missing") || $0.rule == "plist.invalid-image-path"
        }
    }

    @Test(arguments: tables)
    func everyRowOfTheTable(_ t: Table) throws {
        let rows = Self.inForce(t)
        let full = Dictionary(rows.map { ($0.file, $0.px) }, uniquingKeysWith: { a, _ in a })

        let clean = try diagnostics(project(t, files: full))
        #expect(clean.isEmpty, "\(t), every icon present: \(clean.map { "\($0.rule): \($0.message)" })")

        for row in t.rows + rows.filter({ $0.px == 167 }) {
            var off = full
            off[row.file] = row.px + 1
            let offFound = try diagnostics(project(t, files: off))
            #expect(
                offFound.contains { $0.rule == "icon.size-mismatch" && $0.path.hasSuffix("/" + row.file) },
                "\(t): \(row.file) one pixel off")

            // Absent: no icon of that pixel size at all (one image may serve two rows of a size).
            let absentFound = try diagnostics(project(t, files: full.filter { $0.value != row.px }))
            let required = rows.contains { $0.px == row.px && $0.required }
            let reported = absentFound.contains { $0.rule == "icon.missing-required" && $0.message.contains("no \(row.px)x\(row.px) icon") }
            #expect(
                reported == required,
                "\(t): without \(row.px)x\(row.px) (\(row.file)) icon.missing-required should be \(required ? "reported" : "absent")")
        }
    }
}
