import Repair
import Reporting
import SystemCalls

/// The plan as a person reads it: each repair with the files it changes (a diff for text), then
/// what is left and why.
package enum FixPlanText {
    package static func render(_ plan: RepairPlan, shownRoot: String, applying: Bool) -> String {
        var out: [String] = []
        let count = plan.repairs.count
        out.append(
            "\(shownRoot): \(count) repair\(count == 1 ? "" : "s")"
                + (applying ? "" : count == 0 ? "" : " (a plan: nothing is changed; --apply carries it out)"))
        for (n, repair) in plan.repairs.enumerated() {
            out.append("")
            out.append("\(n + 1). \(repair.title) [\(repair.finding.rule)]")
            for change in repair.changes {
                switch change {
                case .rename(let from, let to): out.append("   rename \(FileName.display(from)) → \(FileName.display(to))")
                case .remove(let path, let original):
                    out.append("   remove \(FileName.display(path)) (\(describe(original)); kept in the journal, --undo puts it back)")
                case .write(let path, let original, let new):
                    out.append("   \(original == nil ? "create" : "edit") \(FileName.display(path))")
                    if isText(new) && (original.map(isText) ?? true) {
                        out += UnifiedDiff.lines(old: original ?? [], new: new, path: FileName.display(path)).map { "   " + $0 }
                    } else {
                        out.append("   " + describe(new) + (original.map { " (was \(describe($0)))" } ?? ""))
                    }
                }
            }
        }
        if !plan.left.isEmpty {
            out.append("")
            out.append("Left as they are (\(plan.left.count)):")
            for left in plan.left {
                let place = left.finding.path + (left.finding.line.map { ":\($0)" } ?? "")
                out.append("  \(place) [\(left.finding.rule)]: \(left.reason)")
            }
        }
        return out.joined(separator: "\n")
    }

    /// The plan as the html page shows it.
    package static func page(_ plan: RepairPlan, shownRoot: String) -> FixPlanPage.Plan {
        let repairs = plan.repairs.map { repair in
            FixPlanPage.Repair(
                title: repair.title, rule: repair.finding.rule,
                changes: repair.changes.map { change -> FixPlanPage.Change in
                    switch change {
                    case .rename(let from, let to):
                        return FixPlanPage.Change(
                            path: FileName.display(from), action: "renamed to \(FileName.display(to))", before: nil, after: nil, diff: [])
                    case .remove(let path, let original):
                        return FixPlanPage.Change(path: FileName.display(path), action: "removed", before: original, after: nil, diff: [])
                    case .write(let path, let original, let new):
                        let diff =
                            isText(new) && (original.map(isText) ?? true)
                            ? UnifiedDiff.lines(old: original ?? [], new: new, path: FileName.display(path)) : []
                        return FixPlanPage.Change(
                            path: FileName.display(path), action: original == nil ? "created" : "edited", before: original, after: new,
                            diff: diff)
                    }
                })
        }
        let left = plan.left.map { ($0.finding.path + ($0.finding.line.map { ":\($0)" } ?? ""), $0.finding.rule, $0.reason) }
        return FixPlanPage.Plan(root: shownRoot, repairs: repairs, left: left)
    }

    /// Text a diff can show: no NUL in the first 8 KiB, not a PNG.
    package static func isText(_ bytes: [UInt8]) -> Bool {
        !bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && !bytes.prefix(8192).contains(0)
    }

    /// "PNG 120x120 RGB, 2,315 bytes".
    package static func describe(_ bytes: [UInt8]) -> String {
        guard bytes.count > 25, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return "\(bytes.count) bytes" }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let colour = [0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"][Int(bytes[25])] ?? "colour type \(bytes[25])"
        return "PNG \(width)x\(height) \(bytes[24])-bit \(colour), \(bytes.count) bytes"
    }
}
