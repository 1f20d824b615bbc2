import Findings
import ReswatchProtocol
import RuleEngine

/// Where a subscriber's notifications go (a socket connection). `deliver` must not block: the
/// connection keeps a bounded queue and, when it overflows, drops it and asks for a resync.
package protocol NotificationSink: Sendable {
    func deliver(_ line: [UInt8])
}

/// The one copy of each subscriber's state: its minimum severity and where its notifications go.
/// A change is encoded once per minimum severity in use (at most three), not once per subscriber.
struct SubscriberHub {
    private struct Subscriber {
        let minimumSeverity: Severity
        let sink: any NotificationSink
    }

    private var subscribers: [UInt64: Subscriber] = [:]
    private var nextID: UInt64 = 1

    var isEmpty: Bool { subscribers.isEmpty }

    mutating func add(minimumSeverity: Severity, sink: any NotificationSink) -> UInt64 {
        defer { nextID += 1 }
        subscribers[nextID] = Subscriber(minimumSeverity: minimumSeverity, sink: sink)
        return nextID
    }

    mutating func remove(_ id: UInt64) -> Bool { subscribers.removeValue(forKey: id) != nil }

    func minimumSeverity(of id: UInt64) -> Severity? { subscribers[id]?.minimumSeverity }

    /// `diagnostics/changed` to every subscriber the change concerns.
    func broadcast(_ delta: DiagnosticDelta, generation: Int) {
        for minimum in Set(subscribers.values.map(\.minimumSeverity)) {
            let added = delta.added.filter { $0.severity >= minimum }
            let removed = delta.removed.filter { $0.severity >= minimum }
            guard !added.isEmpty || !removed.isEmpty else { continue }
            let line = RPCEncoder.notification(
                .diagnosticsChanged, DiagnosticsChange(generation: generation, added: added, removed: removed))
            for s in subscribers.values where s.minimumSeverity == minimum { s.sink.deliver(line) }
        }
    }

    /// The same line (already encoded) to every subscriber.
    func broadcast(_ line: [UInt8]) {
        for s in subscribers.values { s.sink.deliver(line) }
    }
}
