import Foundation
import ReswatchProtocol
import SystemCalls

/// Follows the daemon's state for `reswatch status --follow`: prints the state once, then again
/// each time the daemon sends `status/changed` (no polling). When no daemon answers, or the
/// daemon goes away, it reports `down` and tries again every `retry`, for ever: a status bar's
/// script must keep running.
package struct StatusFollower: Sendable {
    package let socket: String
    package let retry: Duration

    package init(socket: String, retry: Duration = .seconds(2)) {
        self.socket = socket
        self.retry = retry
    }

    /// Never returns; `emit` gets each new state (repeats of the same state are not emitted).
    package func run(_ emit: (BarState, StatusResult?) -> Void) -> Never {
        ProcessSignals.unblockTermination()  // a bar must be able to stop it
        var last: BarState?
        func show(_ state: BarState, _ status: StatusResult?) {
            guard state != last else { return }
            last = state
            emit(state, status)
        }
        while true {
            do throws(ClientError) {
                let client = try ReswatchClient(path: socket)
                // Errors only: the bar needs the counts of status/changed, not every finding.
                _ = try client.call(SubscribeRequest.self, SeverityParams(minimumSeverity: .error))
                let status = try client.call(StatusRequest.self)
                show(BarState(status), status)
                _ = client.drainNotifications()  // the status above is newer
                while true {
                    guard let message = try client.readMessage(timeoutMilliseconds: 3_600_000) else { continue }
                    guard message["method"]?.string == RPCNotification.statusChanged.rawValue,
                        let status = try? message["params"]?.decode(StatusResult.self)
                    else { continue }
                    show(BarState(status), status)
                }
            } catch {
                show(.down(error.description), nil)
            }
            Thread.sleep(forTimeInterval: Double(retry.components.seconds) + Double(retry.components.attoseconds) / 1e18)
        }
    }
}
