import ReswatchProtocol
import RuleEngine

/// Where a subscriber's notifications go (a socket connection). `deliver` must not block: the
/// connection keeps a bounded queue and, when it overflows, drops it and asks for a resync.
public protocol NotificationSink: Sendable {
    func deliver(_ line: [UInt8])
}

struct Subscriber {
    let minimumSeverity: Severity
    let sink: any NotificationSink
}
