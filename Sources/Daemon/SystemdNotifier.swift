import Foundation
import SystemCalls

/// sd_notify written by hand: one datagram per message to `$NOTIFY_SOCKET` (the whole protocol; no libsystemd).
/// Does nothing when the variable is unset (not started by systemd).
package struct SystemdNotifier: Sendable {
    package let socketPath: String?
    package let watchdogInterval: Duration?

    package init(environment: [String: String] = ProcessEnvironment.current()) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        if path != nil, let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0,
            environment["WATCHDOG_PID"].map({ $0 == String(getpid()) }) ?? true
        {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    @discardableResult
    package func notify(_ message: String) -> Bool {
        guard let socketPath else { return false }
        return (try? UnixSocket.sendDatagram(Array(message.utf8), to: socketPath)) != nil
    }

    /// CLOCK_MONOTONIC in µs, for RELOADING=1's MONOTONIC_USEC.
    package static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
