import Foundation
import SystemCalls

/// Why `fix --apply` or `fix --undo` did not run (nothing was changed when it says so).
package struct FixError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Carries out a plan so that nothing the person wrote can be lost: every original is first saved
/// under `.reswatch/fix/<time>/` with a journal of what will change; each file is then replaced
/// atomically (a new file in the same folder, synced, renamed over it), so a crash leaves the old
/// file or the new one, never half of one; `progress` lists each change once it is made.
/// `undo` restores every byte of the last run, and leaves (and names) a file edited since.
package enum FixJournal {
    package static let folder = ".reswatch/fix"

    struct Entry: Codable {
        var kind: String  // "write", "create", "rename", "remove"
        var path: String
        var to: String?
        var backup: String?
        /// The bytes after the change (for "remove": the bytes removed).
        var newSize: Int?
        var newHash: String?
        /// A removed file's permissions, given back by undo.
        var mode: UInt32?
    }

    struct Journal: Codable {
        var version = 1
        var created: String
        var state: String  // "applying", "applied", "undone"
        var changes: [Entry]
        /// The applying process: its temporary files are named `<file>.reswatch-tmp-<pid>`.
        var pid: Int32?
    }

    static func hash(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16)
    }

    static func absolute(_ root: String, _ path: String) -> String { root + "/" + path }

    /// The path is inside the root for real: no `..`, its folder resolves under the root, and the
    /// file itself (if there) is a regular file, not a link that could lead out.
    static func checkInside(_ root: String, _ path: String) throws(FixError) {
        guard RepairPaths.isSafe(path) else { throw FixError("refusing \(path): not a plain path inside the root") }
        let folder = (absolute(root, path) as NSString).deletingLastPathComponent
        guard let real = FileSystem.realPath(folder), let realRoot = FileSystem.realPath(root),
            real == realRoot || real.hasPrefix(realRoot + "/")
        else { throw FixError("refusing \(path): its folder is not inside \(root)") }
        if let status = try? FileSystem.status(absolute(root, path)), status.kind != .regular {
            throw FixError("refusing \(path): it is not a regular file")
        }
    }

    static func current(_ root: String, _ path: String) -> [UInt8]? {
        guard (try? FileSystem.status(absolute(root, path)))?.kind == .regular else { return nil }
        return try? FileSystem.readFile(absolute(root, path), limit: 1 << 30)
    }

    /// Applies the plan; returns the journal's folder (root-relative).
    /// `afterChange` is called with each change's index once it is made and listed in `progress`
    /// (the fault-injection tests stop the process there).
    @discardableResult
    package static func apply(_ plan: RepairPlan, afterChange: (Int) -> Void = { _ in }) throws(FixError) -> String {
        let root = plan.root
        // Everything is checked before anything is written.
        for w in plan.writes {
            try checkInside(root, w.path)
            if current(root, w.path) != w.original {
                throw FixError("\(w.path) changed since the plan was made: nothing was changed; run fix again")
            }
        }
        for r in plan.renames {
            try checkInside(root, r.from)
            try checkInside(root, r.to)
            if (try? FileSystem.status(absolute(root, r.to))) != nil { throw FixError("refusing to rename onto \(r.to): it exists") }
        }
        let written = Set(plan.writes.map(\.path))
        for r in plan.removals {
            try checkInside(root, r.path)
            if !written.contains(r.path), current(root, r.path) != r.original {
                throw FixError("\(r.path) changed since the plan was made: nothing was changed; run fix again")
            }
        }
        let stamp = Self.stamp()
        let dir = folder + "/" + stamp
        do {
            try makeDirectories(root, dir)
        } catch { throw FixError("cannot make \(dir): \(error.reason)") }
        var entries: [Entry] = []
        do throws(SystemError) {
            for case .rename(let from, let to) in plan.repairs.flatMap(\.changes) {
                entries.append(Entry(kind: "rename", path: from, to: to))
            }
            for (i, w) in plan.writes.enumerated() {
                if let original = w.original {
                    let backup = "\(i).orig"
                    try FileSystem.writeDurably(absolute(root, dir + "/" + backup), original, mode: 0o600)
                    entries.append(Entry(kind: "write", path: w.path, backup: backup, newSize: w.new.count, newHash: hash(w.new)))
                } else {
                    entries.append(Entry(kind: "create", path: w.path, newSize: w.new.count, newHash: hash(w.new)))
                }
            }
            for (j, r) in plan.removals.enumerated() {
                let backup = "removed-\(j).orig"
                try FileSystem.writeDurably(absolute(root, dir + "/" + backup), r.original, mode: 0o600)
                let mode = (try? FileSystem.status(absolute(root, r.path))).map { $0.mode & 0o7777 } ?? 0o644
                entries.append(
                    Entry(kind: "remove", path: r.path, backup: backup, newSize: r.original.count, newHash: hash(r.original), mode: mode))
            }
            var journal = Journal(created: ISO8601DateFormatter().string(from: Date()), state: "applying", changes: entries, pid: getpid())
            try writeJournal(journal, root: root, dir: dir)
            let progress = try FileSystem.openForAppending(absolute(root, dir + "/progress"), mode: 0o600)
            defer { FileSystem.closeDescriptor(progress) }
            let writes = Dictionary(plan.writes.map { ($0.path, $0.new) }, uniquingKeysWith: { _, b in b })
            for (i, entry) in entries.enumerated() {
                switch entry.kind {
                case "rename":
                    try FileSystem.renameFile(absolute(root, entry.path), absolute(root, entry.to!))
                    FileSystem.syncDirectory((absolute(root, entry.to!) as NSString).deletingLastPathComponent)
                case "remove":
                    if !FileSystem.removeFile(absolute(root, entry.path)), (try? FileSystem.status(absolute(root, entry.path))) != nil {
                        throw SystemError(call: "unlink", path: entry.path, errno: errno)
                    }
                    FileSystem.syncDirectory((absolute(root, entry.path) as NSString).deletingLastPathComponent)
                default:
                    let mode = (try? FileSystem.status(absolute(root, entry.path))).map { $0.mode & 0o7777 } ?? 0o644
                    try FileSystem.writeDurably(absolute(root, entry.path), writes[entry.path]!, mode: mode)
                }
                try FileSystem.writeAll(progress, Array("\(i)\n".utf8), path: dir + "/progress")
                afterChange(i)
            }
            journal.state = "applied"
            try writeJournal(journal, root: root, dir: dir)
        } catch {
            throw FixError(
                "stopped at \(error.path): \(error.reason); what was changed is listed in \(dir)/progress and `reswatch fix --undo` restores it"
            )
        }
        return dir
    }

    /// What `undo` did.
    package struct UndoReport: Sendable {
        package var journal: String
        package var restored: [String] = []
        /// Files edited since the fix: left as they are (their original is kept in the journal folder).
        package var leftAlone: [String] = []
        /// The run had stopped part-way (it was still "applying").
        package var wasInterrupted = false
        /// Temporary files of that run's unfinished writes, removed.
        package var removedTemporary: [String] = []
        /// Files whose saved original is missing from the journal's folder: not restored, and the
        /// run stays undoable (nothing else is lost by trying again once the backup is back).
        package var originalMissing: [String] = []
    }

    /// The newest run under `root` that is not undone, with its journal.
    /// A run folder without `journal.json` stopped before its first change (the journal is written,
    /// atomically, before any file is touched): it is passed over. A journal that is there but
    /// cannot be read is an error: undoing an older run instead would restore the wrong bytes.
    static func lastRun(root: String) throws(FixError) -> (run: String, journal: Journal)? {
        let base = absolute(root, folder)
        let runs = ((try? FileSystem.listDirectory(base)) ?? []).filter(\.isDirectory).map(\.name).sorted()
        for run in runs.reversed() {
            let file = base + "/" + run + "/journal.json"
            guard (try? FileSystem.status(file)) != nil else { continue }
            guard (try? FileSystem.status(file))?.kind == .regular,
                let bytes = try? FileSystem.readFile(file, limit: 64 << 20),
                let journal = try? JSONDecoder().decode(Journal.self, from: Data(bytes))
            else {
                throw FixError(
                    "the journal \(folder)/\(run)/journal.json cannot be read: nothing was restored (its originals are in that folder)")
            }
            if journal.state != "undone" { return (run, journal) }
        }
        return nil
    }

    /// A run that stopped part-way (killed, or the machine went down): which of its changes are
    /// made, judged from the files themselves (each is whole: old or new), not from `progress`.
    package struct Interrupted: Sendable {
        package var journal: String
        package var made: [String] = []
        package var notMade: [String] = []
        /// Neither the old nor the new bytes: edited since.
        package var editedSince: [String] = []
    }

    /// The last run under `root`, if it was interrupted (nil when it finished or was undone).
    package static func interrupted(root: String) -> Interrupted? {
        guard let (run, journal) = try? lastRun(root: root), journal.state == "applying" else { return nil }
        var report = Interrupted(journal: folder + "/" + run)
        for entry in journal.changes {
            let shown = entry.to.map { "\(entry.path) → \($0)" } ?? entry.path
            switch entry.kind {
            case "rename":
                let moved = entry.to.map { (try? FileSystem.status(absolute(root, $0))) != nil } ?? false
                if moved { report.made.append(shown) } else { report.notMade.append(shown) }
            case "remove":
                guard (try? checkInside(root, entry.path)) != nil else { continue }
                if let now = current(root, entry.path) {
                    if now.count == entry.newSize, hash(now) == entry.newHash {
                        report.notMade.append("remove " + shown)
                    } else {
                        report.editedSince.append(shown)
                    }
                } else {
                    report.made.append("remove " + shown)
                }
            default:
                guard (try? checkInside(root, entry.path)) != nil, let now = current(root, entry.path) else {
                    if entry.kind == "create" { report.notMade.append(shown) } else { report.editedSince.append(shown) }
                    continue
                }
                if now.count == entry.newSize, hash(now) == entry.newHash {
                    report.made.append(shown)
                } else if entry.kind == "write", let backup = entry.backup, RepairPaths.isSafe(backup), !backup.contains("/"),
                    (try? FileSystem.readFile(absolute(root, report.journal + "/" + backup), limit: 1 << 30)) == now
                {
                    report.notMade.append(shown)
                } else {
                    report.editedSince.append(shown)
                }
            }
        }
        return report
    }

    /// Restores every byte the last applied (or interrupted) fix under `root` changed, and removes
    /// the temporary file an interrupted write left beside its file.
    package static func undo(root: String) throws(FixError) -> UndoReport {
        guard let (run, journal) = try lastRun(root: root) else {
            throw FixError("nothing to undo: no fix under \(absolute(root, folder)) that is not undone already")
        }
        let dir = folder + "/" + run
        var report = UndoReport(journal: dir, wasInterrupted: journal.state == "applying")
        // A journal is a file in the tree, and so as hostile as any: every path it names must be
        // a plain path inside the root, through no link, before anything is restored.
        for entry in journal.changes {
            try checkInside(root, entry.path)
            if let to = entry.to { try checkInside(root, to) }
            if let backup = entry.backup, !RepairPaths.isSafe(backup) || backup.contains("/") {
                throw FixError("the journal \(dir) names a backup outside its folder: nothing was restored")
            }
        }
        do throws(SystemError) {
            for entry in journal.changes.reversed() { try undo(entry, root: root, dir: dir, into: &report) }
            if let pid = journal.pid {
                for entry in journal.changes where entry.kind != "rename" {
                    let temporary = entry.path + ".reswatch-tmp-\(pid)"
                    if (try? FileSystem.status(absolute(root, temporary)))?.kind == .regular,
                        FileSystem.removeFile(absolute(root, temporary))
                    {
                        report.removedTemporary.append(temporary)
                    }
                }
            }
            if report.originalMissing.isEmpty {
                var done = journal
                done.state = "undone"
                try writeJournal(done, root: root, dir: dir)
            }
        } catch { throw FixError("undo stopped at \(error.path): \(error.reason)") }
        return report
    }

    /// Restores one change, if the file is still as the fix left it (else it is left alone).
    static func undo(_ entry: Entry, root: String, dir: String, into report: inout UndoReport) throws(SystemError) {
        switch entry.kind {
        case "rename":
            let to = entry.to ?? ""
            if (try? FileSystem.status(absolute(root, to))) != nil, (try? FileSystem.status(absolute(root, entry.path))) == nil {
                try FileSystem.renameFile(absolute(root, to), absolute(root, entry.path))
                report.restored.append(entry.path)
            }
        case "remove":
            guard let backup = entry.backup,
                let original = try? FileSystem.readFile(absolute(root, dir + "/" + backup), limit: 1 << 30)
            else {
                report.originalMissing.append(entry.path)
                return
            }
            if (try? FileSystem.status(absolute(root, entry.path))) == nil {
                // Permission bits only: a journal is a file of the tree, and never makes a file setuid.
                try FileSystem.writeDurably(absolute(root, entry.path), original, mode: (entry.mode ?? 0o644) & 0o777)
                report.restored.append(entry.path)
            } else if current(root, entry.path) != original {
                report.leftAlone.append(entry.path)
            }
        case "create":
            guard let now = current(root, entry.path) else { return }
            if now.count == entry.newSize, hash(now) == entry.newHash {
                _ = FileSystem.removeFile(absolute(root, entry.path))
                report.restored.append(entry.path)
            } else {
                report.leftAlone.append(entry.path)
            }
        default:
            guard let backup = entry.backup,
                let original = try? FileSystem.readFile(absolute(root, dir + "/" + backup), limit: 1 << 30)
            else {
                report.originalMissing.append(entry.path)
                return
            }
            let now = current(root, entry.path)
            if now == original { return }
            if let now, now.count == entry.newSize, hash(now) == entry.newHash {
                let mode = (try? FileSystem.status(absolute(root, entry.path))).map { $0.mode & 0o7777 } ?? 0o644
                try FileSystem.writeDurably(absolute(root, entry.path), original, mode: mode)
                report.restored.append(entry.path)
            } else {
                report.leftAlone.append(entry.path)
            }
        }
    }

    static func writeJournal(_ journal: Journal, root: String, dir: String) throws(SystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(journal)) ?? Data()
        try FileSystem.writeDurably(absolute(root, dir + "/journal.json"), Array(data) + [0x0A], mode: 0o600)
    }

    static func makeDirectories(_ root: String, _ dir: String) throws(SystemError) {
        var path = root
        for part in dir.split(separator: "/") {
            path += "/" + part
            if (try? FileSystem.status(path))?.kind == .directory { continue }
            try FileSystem.makeDirectory(path, mode: 0o755)
        }
    }

    /// `20261126T073501Z-1234`: sorts by time; the pid keeps two runs of one second apart.
    static func stamp() -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return f.string(from: Date()) + "-\(getpid())"
    }
}
