import Findings
import ProjectModel
import RuleKit

/// An asset-catalog slot: idiom, point size and scale ("iphone 60@2x").
struct IconSlot: Hashable, Sendable, CustomStringConvertible {
    let idiom: String
    let size: Double
    let scale: Int

    /// Parses "iphone 60@2x" (or "60@2x" with a given idiom).
    init?(_ text: String, idiom given: String? = nil) {
        let parts = text.split(separator: " ")
        let spec: Substring
        if parts.count == 2 {
            idiom = String(parts[0])
            spec = parts[1]
        } else if parts.count == 1, let given {
            idiom = given
            spec = parts[0]
        } else {
            return nil
        }
        let sizeScale = spec.split(separator: "@")
        guard sizeScale.count == 2, let s = Double(sizeScale[0]), s.isFinite, s > 0, s <= Double(CheckedNumber.maximumPixels),
            sizeScale[1].hasSuffix("x"),
            let k = Int(sizeScale[1].dropLast()), (1...3).contains(k)
        else { return nil }
        size = s
        scale = k
    }

    init(idiom: String, size: Double, scale: Int) {
        self.idiom = idiom
        self.size = size
        self.scale = scale
    }

    /// Pixels of the slot; -1 (matches no image) for a size beyond any real slot.
    var pixels: Int { CheckedNumber.rounded(size * Double(scale), in: 0...CheckedNumber.maximumPixels) ?? -1 }
    var sizeText: String { CheckedNumber.int(size).map(String.init) ?? String(size) }
    var description: String { "\(idiom) \(sizeText)@\(scale)x" }
}

/// How a table row is graded in one distribution column.
enum IconLevel: String, Sendable {
    case required, recommended, settings, omit, optional
}

/// One row of QA1686's icon tables (QA1686), as rules/app-icons.yaml writes it.
struct IconTableRow: Sendable {
    let table: String  // iphone | ipad | universal
    let group: String  // modern | legacy
    let pixels: Int
    let file: String?
    let slots: [IconSlot]
    let appStore: IconLevel
    let adHoc: IconLevel
    let code: String?
    let legacyFrom: OSVersion?
    let line: Int?

    func level(for distribution: Distribution) -> IconLevel { distribution == .appStore ? appStore : adHoc }

    static func parse(_ p: ModuleParameters) throws(ModuleError) -> IconTableRow {
        try p.expectOnly(["table", "group", "px", "file", "slots", "app-store", "ad-hoc", "code", "legacy-from", "source"])
        let table = try p.requiredString("table")
        guard ["iphone", "ipad", "universal"].contains(table) else { throw p.error("table: iphone, ipad or universal") }
        let group = try p.requiredString("group")
        guard ["modern", "legacy"].contains(group) else { throw p.error("group: modern or legacy") }
        guard let px = try p.int("px") else { throw p.error("missing px") }
        var slots: [IconSlot] = []
        for s in try p.strings("slots") ?? [] {
            guard let slot = IconSlot(s) else { throw p.error("slots: '\(s)' is not 'idiom size@scale'") }
            guard slot.pixels == px else { throw p.error("slots: \(s) is \(slot.pixels) px, the row says \(px)") }
            slots.append(slot)
        }
        func level(_ key: String) throws(ModuleError) -> IconLevel {
            let text = try p.requiredString(key)
            guard let l = IconLevel(rawValue: text) else { throw p.error("\(key): required, recommended, settings, omit or optional") }
            return l
        }
        var legacyFrom: OSVersion?
        if let t = try p.string("legacy-from") {
            guard let v = OSVersion(t) else { throw p.error("legacy-from: not a version") }
            legacyFrom = v
        }
        return IconTableRow(
            table: table, group: group, pixels: px, file: try p.string("file"), slots: slots,
            appStore: try level("app-store"), adHoc: try level("ad-hoc"), code: try p.string("code"),
            legacyFrom: legacyFrom, line: p.line)
    }
}

/// The seed tables, and how a project context selects from them.
struct IconTable: Sendable {
    let rows: [IconTableRow]
    /// Slots that only apply below a deployment target.
    let legacySlots: [(slot: IconSlot, below: OSVersion)]

    static func tableName(for devices: Set<Device>) -> String {
        devices == [.iphone] ? "iphone" : (devices == [.ipad] ? "ipad" : "universal")
    }

    /// Rows in force for a context: the modern table, plus the legacy table when the target ≤ 6.1.
    func rows(for context: ProjectContext) -> [IconTableRow] {
        let table = Self.tableName(for: context.devices)
        let legacy = context.deploymentTarget <= OSVersion(6, 1)
        return rows.filter { $0.table == table && ($0.group == "modern" || legacy) }
    }

    func isLegacy(_ slot: IconSlot, target: OSVersion) -> Bool {
        legacySlots.contains { $0.slot == slot && target >= $0.below }
    }
}
