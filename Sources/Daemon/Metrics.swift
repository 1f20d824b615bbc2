import Findings
import Foundation
import RuleEngine
import Synchronization
import SystemCalls
import Watcher

/// Counters the daemon keeps for its Prometheus metrics (docs/operations.md, "Metrics").
struct DaemonMetrics {
    /// Upper bounds (seconds) of the batch latency histogram: from a batch's first event to its
    /// findings published (the settle time is its floor).
    static let batchBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    var batchCounts = [Int](repeating: 0, count: batchBuckets.count)
    var batchCount = 0
    var batchSum = 0.0
    /// Rescans by root and reason (overflows among them).
    var rescans: [String: [RescanReason: Int]] = [:]
    /// Batches whose first change was applied while they settled: "used" when that was the whole
    /// batch, "redone" when more came and the batch was applied after it.
    var preparedBatches: [String: Int] = [:]
    /// Evaluations and their times by rule (its module entry) and kind, for every root since the
    /// daemon started (a removed root's count stays: the metric is a counter).
    var rules: [String: (kind: String, stat: RuleStat)] = [:]
    /// Times the heap was trimmed after a burst of engine jobs or a long one (`EngineSlots`).
    var engineTrims = 0

    mutating func observeRules(_ metrics: [RuleMetric]) {
        for r in metrics { rules[r.source, default: (r.kind, RuleStat())].stat.merge(r.stat) }
    }

    mutating func observeBatch(_ seconds: Double) {
        batchCount += 1
        batchSum += seconds
        for (i, bound) in Self.batchBuckets.enumerated() where seconds <= bound { batchCounts[i] += 1 }
    }
}

/// Connections open on the socket, counted by the socket server.
package final class ClientGauge: Sendable {
    let value = Atomic<Int>(0)
    package init() {}
    package func opened() { value.add(1, ordering: .relaxed) }
    package func closed() { value.subtract(1, ordering: .relaxed) }
    package var current: Int { value.load(ordering: .relaxed) }
}

/// The Prometheus text exposition format (version 0.0.4): HELP and TYPE once per family.
struct Exposition {
    private(set) var text = ""

    static func escape(_ value: String) -> String {
        var out = ""
        for c in FileName.escapingUndecodable(value) {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
        text += "\(name)\(rendered) \(Self.number(value))\n"
    }
}

extension DaemonCore {
    /// Every metric in the text exposition format (`reswatch metrics`, `--metrics-file`).
    package func metricsText() -> String {
        var e = Exposition()
        let paths = roots.keys.sorted()
        e.family("reswatch_findings", "gauge", "Findings in force, by root and severity.")
        for path in paths {
            let counts = roots[path]!.diagnostics.bySeverity
            for severity in Severity.allCases {
                e.sample("reswatch_findings", [("root", path), ("severity", severity.rawValue)], Double(counts[severity]))
            }
        }
        e.family("reswatch_files", "gauge", "Files indexed, by root.")
        for path in paths { e.sample("reswatch_files", [("root", path)], Double(roots[path]!.summary.files)) }
        e.family("reswatch_root_state", "gauge", "1 for the state each root is in (scanning, ready, degraded).")
        for path in paths {
            for state in ["scanning", "ready", "degraded"] {
                e.sample("reswatch_root_state", [("root", path), ("state", state)], roots[path]!.state.rawValue == state ? 1 : 0)
            }
        }
        e.family("reswatch_watches", "gauge", "inotify watches in use (all roots).")
        e.sample("reswatch_watches", [], Double(watcher.watchCount))
        e.family("reswatch_rescans_total", "counter", "Rescans of a root, by reason (queue and buffer overflows among them).")
        for path in paths {
            for (reason, n) in (metrics.rescans[path] ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                e.sample("reswatch_rescans_total", [("root", path), ("reason", reason.rawValue)], Double(n))
            }
        }
        e.family(
            "reswatch_last_change_age_seconds", "gauge",
            "Seconds since the findings of a root last changed (absent before the first change).")
        for path in paths {
            if let last = roots[path]!.lastChange {
                e.sample("reswatch_last_change_age_seconds", [("root", path)], max(0, Date().timeIntervalSince(last).rounded()))
            }
        }
        e.family("reswatch_queue_depth", "gauge", "Changed paths waiting to settle, plus batches being applied.")
        e.sample("reswatch_queue_depth", [], Double(queue.depth))
        e.family("reswatch_batch_duration_seconds", "histogram", "From a batch's first file event to its findings published.")
        for (i, bound) in DaemonMetrics.batchBuckets.enumerated() {
            e.sample("reswatch_batch_duration_seconds_bucket", [("le", Exposition.number(bound))], Double(metrics.batchCounts[i]))
        }
        e.sample("reswatch_batch_duration_seconds_bucket", [("le", "+Inf")], Double(metrics.batchCount))
        e.sample("reswatch_batch_duration_seconds_sum", [], metrics.batchSum)
        e.sample("reswatch_batch_duration_seconds_count", [], Double(metrics.batchCount))
        e.family(
            "reswatch_prepared_batches_total", "counter",
            "Batches whose first change was applied while they settled: used (it was the whole batch, published as soon as it settled) or redone (more changes came; the batch was applied after it)."
        )
        for outcome in ["used", "redone"] {
            e.sample("reswatch_prepared_batches_total", [("outcome", outcome)], Double(metrics.preparedBatches[outcome] ?? 0))
        }
        let overflows = watcher.overflows
        e.family(
            "reswatch_inotify_overflows_total", "counter",
            "Times events were lost: the kernel's inotify queue overflowed (raise fs.inotify.max_queued_events), or the daemon's own buffer did; each is followed by rescans."
        )
        e.sample("reswatch_inotify_overflows_total", [("queue", "kernel")], Double(overflows.kernel))
        e.sample("reswatch_inotify_overflows_total", [("queue", "daemon")], Double(overflows.buffer))
        ruleMetrics(into: &e)
        e.family("reswatch_exec_rule_failures", "gauge", "Findings in force that say an exec rule failed (rules.exec-failed).")
        e.sample(
            "reswatch_exec_rule_failures", [], Double(paths.reduce(0) { $0 + (roots[$1]!.diagnostics.count(of: "rules.exec-failed")) }))
        e.family("reswatch_rule_module_errors", "gauge", "Rule modules that failed to load (each is also in status).")
        e.sample("reswatch_rule_module_errors", [], Double(status().ruleErrors.count))
        e.family("reswatch_clients", "gauge", "Connections open on the socket.")
        e.sample("reswatch_clients", [], Double(clientGauge.current))
        e.family(
            "reswatch_heap_trims_total", "counter",
            "Times free heap pages went back to the kernel, by what came before: engine jobs, or a large socket message.")
        e.sample("reswatch_heap_trims_total", [("after", "engine jobs")], Double(metrics.engineTrims))
        e.sample("reswatch_heap_trims_total", [("after", "socket message")], Double(pages.trims))
        e.family("reswatch_generation", "gauge", "Changes of the set of findings since start.")
        e.sample("reswatch_generation", [], Double(generation))
        return e.text
    }

    /// Evaluations and evaluation time by rule (a rule is its module entry: file:line).
    func ruleMetrics(into e: inout Exposition) {
        let sorted = metrics.rules.sorted { $0.key < $1.key }
        e.family("reswatch_rule_evaluations_total", "counter", "Rule evaluations run, by rule (its module entry) and kind.")
        for (rule, r) in sorted {
            e.sample("reswatch_rule_evaluations_total", [("rule", rule), ("kind", r.kind)], Double(r.stat.evaluations))
        }
        e.family("reswatch_rule_evaluation_seconds", "histogram", "Time one evaluation took, by rule (its module entry) and kind.")
        for (rule, r) in sorted {
            let labels = [("rule", rule), ("kind", r.kind)]
            for (bound, count) in zip(RuleStat.bucketBounds, r.stat.cumulativeCounts) {
                e.sample("reswatch_rule_evaluation_seconds_bucket", labels + [("le", Exposition.number(bound))], Double(count))
            }
            e.sample("reswatch_rule_evaluation_seconds_bucket", labels + [("le", "+Inf")], Double(r.stat.evaluations))
            e.sample("reswatch_rule_evaluation_seconds_sum", labels, Double(r.stat.nanoseconds) / 1e9)
            e.sample("reswatch_rule_evaluation_seconds_count", labels, Double(r.stat.evaluations))
        }
    }

    /// Rewrites `metrics-file` (atomically) at most twice a second, after counts change.
    func scheduleMetricsWrite() {
        guard let path = configuration.metricsFile, metricsWrite == nil else { return }
        metricsWrite = Task {
            try? await Task.sleep(for: .milliseconds(500))
            self.writeMetrics(path)
        }
    }

    func writeMetrics(_ path: String) {
        metricsWrite = nil
        do { try FileSystem.writeAtomically(path, Array(metricsText().utf8), mode: 0o644, exactMode: true) } catch {
            logger.error("cannot write the metrics file: \(error)")
        }
    }
}
