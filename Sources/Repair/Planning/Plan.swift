import Findings

/// One change to the tree, root-relative paths. A repair is made of them; `fix --apply` carries
/// them out atomically and journaled (FixJournal).
package enum FileChange: Sendable, Hashable {
    /// A file's new bytes; `original` nil: the file is created.
    case write(path: String, original: [UInt8]?, new: [UInt8])
    case rename(from: String, to: String)
    /// A file the repair makes unneeded (an icon a single-size set no longer names): its bytes as
    /// the plan found them are saved in the journal, and `--undo` puts them back.
    case remove(path: String, original: [UInt8])

    /// The path the change writes (a rename's new name, a removed file's name).
    package var path: String {
        switch self {
        case .write(let path, _, _): path
        case .rename(_, let to): to
        case .remove(let path, _): path
        }
    }
}

/// What a repair does for one finding.
package struct Repair: Sendable {
    /// The finding it repairs.
    package let finding: Diagnostic
    /// One line a person reads ("Add CFBundleIconName = AppIcon to SampleApp/Info.plist").
    package let title: String
    package let changes: [FileChange]

    package init(finding: Diagnostic, title: String, changes: [FileChange]) {
        self.finding = finding
        self.title = title
        self.changes = changes
    }
}

/// A finding `fix` leaves as it is, and why (ambiguous, a person's choice, not repairable yet).
package struct Unrepaired: Sendable {
    package let finding: Diagnostic
    package let reason: String

    package init(finding: Diagnostic, reason: String) {
        self.finding = finding
        self.reason = reason
    }
}

/// The plan for one root: the repairs, and what is left with the reason.
package struct RepairPlan: Sendable {
    package let root: String
    package var repairs: [Repair] = []
    /// Findings an earlier repair of the plan also repairs (two findings, one edit).
    package var alsoRepaired: [Diagnostic] = []
    package var left: [Unrepaired] = []

    package init(root: String) { self.root = root }

    /// Each file's changes merged: for every path written, its bytes on disk now and at the end.
    package var writes: [(path: String, original: [UInt8]?, new: [UInt8])] {
        var order: [String] = []
        var merged: [String: (original: [UInt8]?, new: [UInt8])] = [:]
        for repair in repairs {
            for case .write(let path, let original, let new) in repair.changes {
                if merged[path] == nil { order.append(path) }
                merged[path] = (merged[path]?.original ?? original, new)
            }
        }
        return order.map { ($0, merged[$0]!.original, merged[$0]!.new) }
    }

    package var removals: [(path: String, original: [UInt8])] {
        repairs.flatMap { r in r.changes.compactMap { if case .remove(let p, let o) = $0 { (p, o) } else { nil } } }
    }

    package var renames: [(from: String, to: String)] {
        repairs.flatMap { r in r.changes.compactMap { if case .rename(let f, let t) = $0 { (f, t) } else { nil } } }
    }

    package var isEmpty: Bool { repairs.isEmpty }
}
