import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import Synchronization
import Testing

@testable import Daemon

/// A change is encoded once per severity threshold and the same bytes go to every subscriber of
/// that threshold (issue 11, item 4): a thousand subscribers cost one encoding, not a thousand.
@Suite struct SubscriberHubTests {
    final class RecordingSink: NotificationSink, Sendable {
        let lines = Mutex<[[UInt8]]>([])
        func deliver(_ line: [UInt8]) { lines.withLock { $0.append(line) } }
    }

    static func finding(_ severity: Severity, _ path: String) -> Diagnostic {
        Diagnostic(rule: "test.rule", severity: severity, root: "/r", project: "", path: path, message: "m")
    }

    @Test func oneEncodingPerSeverityThreshold() throws {
        var hub = SubscriberHub()
        let sinks = (0..<6).map { _ in RecordingSink() }
        for (i, sink) in sinks.enumerated() { _ = hub.add(minimumSeverity: i < 3 ? .info : .error, sink: sink) }
        var delta = DiagnosticDelta()
        delta.added = [Self.finding(.error, "a"), Self.finding(.info, "b")]
        hub.broadcast(delta, generation: 7)

        let lines = sinks.map { $0.lines.withLock { $0 } }
        #expect(lines.allSatisfy { $0.count == 1 })
        func storage(_ line: [UInt8]) -> UnsafeRawPointer? { line.withUnsafeBytes { $0.baseAddress } }
        let infoStorage = Set(lines[0..<3].map { storage($0[0]) })
        let errorStorage = Set(lines[3..<6].map { storage($0[0]) })
        #expect(infoStorage.count == 1 && errorStorage.count == 1, "the same encoded bytes for every subscriber of a threshold")
        #expect(infoStorage != errorStorage)
        let info = try JSONDecoder().decode(JSONValue.self, from: Data(lines[0][0]))
        let error = try JSONDecoder().decode(JSONValue.self, from: Data(lines[3][0]))
        #expect(info["params"]?["added"]?.array?.count == 2 && error["params"]?["added"]?.array?.count == 1)
        #expect(error["method"]?.string == "diagnostics/changed" && error["params"]?["generation"]?.int == 7)
    }

    @Test func aChangeBelowEveryThresholdSendsNothing() {
        var hub = SubscriberHub()
        let sink = RecordingSink()
        _ = hub.add(minimumSeverity: .error, sink: sink)
        var delta = DiagnosticDelta()
        delta.removed = [Self.finding(.warning, "a")]
        hub.broadcast(delta, generation: 1)
        #expect(sink.lines.withLock { $0.isEmpty })
    }
}
