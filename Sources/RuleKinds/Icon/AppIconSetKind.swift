import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// `icon.*` for asset-catalog app icon sets: slot sizes, required / recommended slots from the seed
/// tables, the App Store icon, alpha, and the set's own structure.
package struct AppIconSetKind: RuleKind {
    package static let name = "appicon-set"
    package static let summary = "Checks .appiconset folders against Apple's icon tables (QA1686) and App Store Connect."
    package static let subjects: Set<SubjectKind> = [.assetSet]

    package static let sizeMismatch = RuleInfo(
        id: "icon.size-mismatch", severity: .error, summary: "An icon's pixel size is not size × scale of its slot.",
        rationale: "QA1686: the width and height in pixels must match the tables; actool warns and App Store Connect rejects wrong sizes.",
        fix: "Export the icon at exactly the slot's pixel size (points × scale), or move it to the slot it was made for.")
    package static let missingRequired = RuleInfo(
        id: "icon.missing-required", severity: .error, code: "ITMS-90022",
        summary: "A slot Apple's tables mark Required for the project's devices and deployment target has no image.",
        rationale: "App Store Connect rejects the upload: ITMS-90022 (iPhone), ITMS-90023 (iPad).",
        fix: "Add an image of the listed pixel size to that slot, or switch the set to a single 1024x1024 icon (Xcode 14+).")
    /// icon.missing-required carrying the table row's own code (ITMS-90022 iPhone, -90023 iPad).
    static func missingRequired(code: String?) -> RuleInfo {
        RuleInfo(
            id: missingRequired.id, severity: .error, code: code ?? missingRequired.code, summary: missingRequired.summary,
            rationale: missingRequired.rationale, fix: missingRequired.fix)
    }

    package static let missingRecommended = RuleInfo(
        id: "icon.missing-recommended", severity: .warning,
        summary: "An \"Optional but recommended\" slot of an all-sizes set is empty.",
        rationale:
            "QA1686: \"It is strongly recommended that your application include artwork for all the icons listed\"; iOS otherwise scales another icon.",
        fix: "Add the listed size, or disable the rule in .reswatch.yaml if the scaled icon is acceptable.")
    package static let marketingMissing = RuleInfo(
        id: "icon.marketing-missing", severity: .error, code: "ITMS-90704",
        summary: "The app icon set has no 1024x1024 App Store icon.",
        rationale: "App Store Connect rejects builds without the 1024x1024 icon in the asset catalog (ITMS-90704).",
        fix: "Add a 1024x1024 RGB PNG without alpha to the ios-marketing (or single-size universal) slot.")
    package static let marketingAlpha = RuleInfo(
        id: "icon.marketing-alpha", severity: .error, code: "ITMS-90717",
        summary: "The 1024 App Store icon has an alpha channel (colour type 4/6 or tRNS), even if every pixel is opaque.",
        rationale: "App Store Connect: \"The App Store Icon … can't be transparent nor contain an alpha channel\" (ITMS-90717).",
        fix:
            "Flatten onto an opaque background and save as RGB without alpha (e.g. `convert in.png -background white -alpha remove -alpha off out.png`)."
    )
    package static let transparent = RuleInfo(
        id: "icon.transparent", severity: .warning,
        summary:
            "An app icon (other than the App Store icon) has pixels a person can see through: alpha below 230 of 255, outside the corners the rounded icon mask hides (a circle of radius 15% of the side in each corner).",
        rationale:
            "QA1686: \"If your icons include transparent areas … fill these areas with a solid color\"; iOS fills them with black. Nearly opaque pixels (anti-aliased edges) and the masked corners do not show.",
        fix: "Fill transparent areas with a solid colour and save without alpha.")
    package static let fileMissing = RuleInfo(
        id: "icon.file-missing", severity: .error, summary: "Contents.json names a file that is not in the set folder.",
        rationale: "actool fails (\"The app icon set … has an unassigned child\" / missing file) and the slot is empty in the build.",
        fix: "Add the file, or fix the \"filename\" in Contents.json.")
    /// icon.file-missing for a required slot, carrying the code App Store Connect rejects the
    /// empty slot with (ITMS-90022 iPhone, -90023 iPad, -90704 the App Store icon).
    static func fileMissing(code: String?) -> RuleInfo {
        RuleInfo(
            id: fileMissing.id, severity: fileMissing.severity, code: code, summary: fileMissing.summary,
            rationale: fileMissing.rationale, fix: fileMissing.fix)
    }
    package static let unassigned = RuleInfo(
        id: "icon.unassigned", severity: .warning,
        summary: "A file in the set that Contents.json does not name, or an entry that maps to no valid slot.",
        rationale: "actool: \"The app icon set has an unassigned child\"; the file is not used and often is the icon someone meant to add.",
        fix: "Reference the file from a slot in Contents.json, or delete it; fix the idiom/size/scale of invalid entries.")
    package static let duplicateSlot = RuleInfo(
        id: "icon.duplicate-slot", severity: .warning, summary: "Two entries for the same idiom/size/scale/appearance.",
        rationale: "actool keeps one and warns; which image ships is undefined.",
        fix: "Remove one of the duplicate entries from Contents.json.")
    package static let legacySlot = RuleInfo(
        id: "icon.legacy-slot", severity: .info,
        summary: "A filled slot that only applies below the deployment target (57, 72, 50, 29@1x iPhone; 76@1x from iOS 10).",
        rationale: "QA1686 Tables 2/4/6 apply only to deployment targets of 6.1 or earlier; 1x iPads are gone since iOS 10.",
        fix: "Remove the legacy slot and its file; nothing on a supported device uses it.")

    package static let notShipped = RuleInfo(
        id: "icon.not-shipped", severity: .info,
        summary: "An app icon set that no build configuration of the app uses (not the app icon, not an alternate icon).",
        rationale:
            "Its App Store rules (alpha, transparency, unassigned files) do not apply to a set no build includes; reswatch still checks what would make it unusable, and says that it did only that.",
        fix: "Delete the set if it is left over, or name it in ASSETCATALOG_COMPILER_APPICON_NAME / _ALTERNATE_APPICON_NAMES.")

    package static let rules = [
        sizeMismatch, missingRequired, missingRecommended, marketingMissing, marketingAlpha, transparent, fileMissing,
        unassigned, duplicateSlot, legacySlot, notShipped,
    ]
    package static let parameters = [
        "valid-slots": "idiom → list of \"size@scale\" slots actool accepts",
        "marketing-slots": "slots that hold the 1024 App Store icon (\"idiom size@scale\")",
        "legacy-slots": "list of {slot, below}: slots that apply only below a deployment target",
        "rows": "the seed icon tables: {table, group, px, file, slots, app-store, ad-hoc, code, legacy-from}",
    ]

    let validSlots: [String: Set<IconSlot>]
    let marketingSlots: Set<IconSlot>
    let table: IconTable

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        var valid: [String: Set<IconSlot>] = [:]
        if let v = p.child("valid-slots") {
            for idiom in v.keys {
                var set = Set<IconSlot>()
                for s in try v.strings(idiom) ?? [] {
                    guard let slot = IconSlot(s, idiom: idiom) else { throw v.error("valid-slots.\(idiom): '\(s)' is not size@scale") }
                    set.insert(slot)
                }
                valid[idiom] = set
            }
        }
        validSlots = valid
        var marketing = Set<IconSlot>()
        for s in try p.strings("marketing-slots") ?? [] {
            guard let slot = IconSlot(s) else { throw p.error("marketing-slots: '\(s)' is not 'idiom size@scale'") }
            marketing.insert(slot)
        }
        marketingSlots = marketing
        var legacy: [(IconSlot, OSVersion)] = []
        for item in try p.list("legacy-slots") ?? [] {
            try item.expectOnly(["slot", "below"])
            guard let slot = IconSlot(try item.requiredString("slot")), let below = OSVersion(try item.requiredString("below")) else {
                throw item.error("legacy-slots: expected {slot: \"idiom size@scale\", below: \"7.0\"}")
            }
            legacy.append((slot, below))
        }
        var rows: [IconTableRow] = []
        for item in try p.list("rows") ?? [] { rows.append(try IconTableRow.parse(item)) }
        table = IconTable(rows: rows, legacySlots: legacy.map { (slot: $0.0, below: $0.1) })
    }

    package func applies(to subject: Subject) -> Bool { RelativePath.hasSuffix(subject.path, ".appiconset") }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard var set = AppIconSetEvaluation(kind: self, subject: subject, context: context) else { return }
        set.reportNotShipped()
        // Sized once for the set's entries: grown from empty, each of them rehashed every key
        // (seven strings for a slot key) at every doubling, a third of their cost.
        set.seen.reserveCapacity(set.contents.images.count)
        set.referenced.reserveCapacity(set.contents.images.count)
        set.filled.reserveCapacity(set.contents.images.count)
        for (index, entry) in set.contents.images.enumerated() { set.check(entry, at: index) }
        set.reportUnassignedFiles()
        set.checkRequirements()
    }

    /// The slots the seed tables mark Required for the project's devices, target and distribution.
    func requiredSlots(_ project: ProjectContext) -> [IconSlot] {
        let idioms = Set(project.devices.map(\.rawValue))
        return table.rows(for: project).filter {
            var level = $0.level(for: project.distribution)
            if let from = $0.legacyFrom, project.deploymentTarget >= from { level = .optional }
            return level == .required
        }.flatMap { $0.slots.filter { idioms.contains($0.idiom) && !table.isLegacy($0, target: project.deploymentTarget) } }
    }

    /// icon.missing-required / icon.missing-recommended from the seed tables; `follows`: the missing
    /// master of a single-size set, which every missing size follows from.
    func checkTable(subject: Subject, filled: Set<IconSlot>, context: EvaluationContext, follows master: ReportedFinding? = nil) {
        let project = context.project
        let target = project.deploymentTarget
        let idioms = Set(project.devices.map(\.rawValue))
        func isFilled(_ slot: IconSlot) -> Bool {
            filled.contains(slot) || filled.contains(IconSlot(idiom: "universal", size: slot.size, scale: slot.scale))
        }
        var hasSettingsBundle: Bool?
        var requiredSlots = Set<IconSlot>()
        var reported = Set<IconSlot>()
        let rows = table.rows(for: project)
        let tableLabel = project.devices == [.iphone] ? "iPhone-only" : (project.devices == [.ipad] ? "iPad-only" : "universal")
        for pass in [IconLevel.required, .recommended] {
            for row in rows {
                let slots = row.slots.filter { idioms.contains($0.idiom) && !table.isLegacy($0, target: target) }
                guard !slots.isEmpty else { continue }
                var level = row.level(for: project.distribution)
                if let from = row.legacyFrom, target >= from { level = .optional }
                if level == .settings {
                    if hasSettingsBundle == nil { hasSettingsBundle = Self.hasSettingsBundle(context) }
                    level = hasSettingsBundle! ? .recommended : .optional
                }
                guard level == pass, !slots.contains(where: isFilled) else { continue }
                let key = slots[0]
                if pass == .required {
                    guard requiredSlots.insert(key).inserted else { continue }
                    let code = row.code ?? Self.missingRequired.code
                    let slotNames = slots.map(\.description).joined(separator: " or ")
                    context.report(
                        Self.missingRequired(code: code),
                        path: subject.path,
                        message:
                            "no \(row.pixels)x\(row.pixels) icon in the \(slotNames) slot (required for \(tableLabel) apps, deployment target \(target); \(tableLabel) because \(project.devicesBecause))",
                        follows: master, brief: "no \(row.pixels)x\(row.pixels) icon for the \(slotNames) slot (\(code ?? "required"))")
                } else {
                    guard !requiredSlots.contains(key), reported.insert(key).inserted else { continue }
                    let slotNames = slots.map(\.description).joined(separator: " or ")
                    context.report(
                        Self.missingRecommended, path: subject.path,
                        message: "no \(row.pixels)x\(row.pixels) icon in the \(slotNames) slot (optional but recommended)",
                        follows: master, brief: "no \(row.pixels)x\(row.pixels) icon for the \(slotNames) slot")
                }
            }
        }
    }

    static func hasSettingsBundle(_ context: EvaluationContext) -> Bool {
        let dir = context.project.directory
        guard case .success(let entries) = context.list(dir) else { return false }
        if entries.contains(where: { $0.name == "Settings.bundle" }) { return true }
        for e in entries where e.isDirectory {
            if case .success(let sub) = context.list(RelativePath.join(dir, e.name)), sub.contains(where: { $0.name == "Settings.bundle" })
            {
                return true
            }
        }
        return false
    }
}
