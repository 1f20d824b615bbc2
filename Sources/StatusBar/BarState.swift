import ReswatchProtocol

/// What a status bar shows of the daemon: one state and the counts, from a `status` result or
/// from the absence of a daemon.
package struct BarState: Sendable, Equatable {
    /// Worst first: a bar's colour follows the first that applies.
    package enum Level: String, Sendable, CaseIterable {
        /// No daemon answers.
        case down
        /// Something is not checked: no root watched, a root scanning or degraded, a root that holds
        /// nothing to check, or a rule module that failed to load.
        case degraded
        case error
        case warning
        case ok
    }

    package var level: Level
    package var errors = 0
    package var warnings = 0
    package var infos = 0
    package var roots = 0
    package var files = 0
    package var generation = 0
    /// One line per root and per rule-module error, for tooltips.
    package var details: [String] = []

    package init(level: Level) { self.level = level }

    /// No daemon answers at `socket`.
    package static func down(_ reason: String) -> BarState {
        var s = BarState(level: .down)
        s.details = ["no reswatch daemon: \(reason)"]
        return s
    }

    package init(_ status: StatusResult) {
        errors = status.roots.reduce(0) { $0 + $1.errors }
        warnings = status.roots.reduce(0) { $0 + $1.warnings }
        infos = status.roots.reduce(0) { $0 + $1.infos }
        roots = status.roots.count
        files = status.roots.reduce(0) { $0 + $1.files }
        generation = status.generation
        // A daemon watching nothing checks nothing: never a quiet ok.
        let unchecked =
            status.roots.isEmpty || status.roots.contains { $0.state != .ready || $0.isEmpty } || !status.ruleErrors.isEmpty
        level = unchecked ? .degraded : errors > 0 ? .error : warnings > 0 ? .warning : .ok
        for r in status.roots {
            var line = "\(r.path): \(r.state.rawValue), \(r.errors) errors, \(r.warnings) warnings, \(r.infos) info"
            if let reason = r.reason { line += " (\(reason))" }
            details.append(line)
        }
        if status.roots.isEmpty { details.append("no roots watched") }
        for e in status.ruleErrors { details.append("rule module error: \(e)") }
    }

    /// The short text a bar shows: "2E 1W", "scanning", "down".
    package var text: String {
        switch level {
        case .down: "down"
        case .degraded: "\(errors)E \(warnings)W !"
        case .error, .warning, .ok: "\(errors)E \(warnings)W"
        }
    }

    package var tooltip: String { (["reswatch: \(level.rawValue)"] + details).joined(separator: "\n") }

    /// Share of the findings that are not errors, for bars that pick an icon by percentage:
    /// 100 with no errors, 0 when every finding is an error or no daemon answers.
    package var percentage: Int {
        if level == .down { return 0 }
        let total = errors + warnings + infos
        return total == 0 ? 100 : (100 * (total - errors)) / total
    }

    /// The colour of the level (#rrggbb), shared by the i3bar, polybar and tmux formats.
    package var color: String {
        switch level {
        case .down: "#808080"
        case .degraded: "#ff8800"
        case .error: "#ff4444"
        case .warning: "#ffcc00"
        case .ok: "#44cc44"
        }
    }
}
