import SystemCalls

/// What a `diagnostics` reply does not cover, read from the `status` asked just before it: a
/// root still in its first scan has nothing reported yet, and a rule module that did not load
/// has rules not in force as written. Either makes the reply incomplete (exit 2, as `check`),
/// never a quiet "0 diagnostics". A degraded root and a root with nothing to check are said too.
public struct DiagnosticsCoverage: Sendable, Equatable {
    /// Why the findings are not the whole answer (exit 2).
    public var incomplete: [String] = []
    /// Worth knowing, not a gap in what was checked.
    public var notes: [String] = []

    /// `path`: the absolute path asked about, nil for everything.
    /// Paths, reasons and module errors come escaped (FileName.display), for a terminal: a root
    /// path or a file named in a reason cannot forge a line or recolour the output.
    public init(status: StatusResult, path: String?) {
        if status.roots.isEmpty { incomplete.append("the daemon watches no root") }
        for root in status.roots where path.map({ Self.overlaps(root.path, $0) }) ?? true {
            let shown = FileName.display(root.path)
            let reason = root.reason.map(FileName.display)
            switch root.state {
            case .scanning:
                incomplete.append(
                    "\(shown) is still being scanned: nothing is reported for it yet (`reswatch status` says when it is ready)")
            case .degraded:
                notes.append("\(shown) is degraded (\(reason ?? "see reswatch status")): its findings may be late")
            case .ready:
                if root.judged == 0 { notes.append("\(shown): \(reason ?? "nothing to check")") }
            }
        }
        for error in status.ruleErrors { incomplete.append("a rule module did not load: \(FileName.display(error.description))") }
    }

    /// The path is in the root, or the root is in the path (whole path segments).
    public static func overlaps(_ root: String, _ path: String) -> Bool {
        func within(_ a: String, _ b: String) -> Bool { a == b || a.hasPrefix(b == "/" ? "/" : b + "/") }
        return within(path, root) || within(root, path)
    }
}
