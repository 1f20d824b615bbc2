import Foundation
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

@testable import Daemon

/// Structured journal entries over the native protocol, received on a socket standing in for
/// journald's (`RESWATCH_JOURNAL_SOCKET`; the container the tests run in has no journald).
@Suite(.serialized) struct JournalTests {
    /// A bound datagram socket that collects what is sent to it.
    final class FakeJournal {
        let fd: Int32
        let path: String
        init(_ path: String) throws {
            self.path = path
            fd = try boundDatagramSocket(path)
        }
        deinit { close(fd) }

        /// Entries received within `seconds`, each as its fields.
        func entries(seconds: Double, until done: ([[String: String]]) -> Bool) -> [[String: String]] {
            var out: [[String: String]] = []
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && !done(out) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 200) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { out.append(JournalTests.decode(Array(buffer[..<n]))) }
            }
            return out
        }
    }

    /// The native protocol, read as journald reads it.
    static func decode(_ bytes: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        var i = 0
        while i < bytes.count {
            guard let end = bytes[i...].firstIndex(where: { $0 == 0x0A || $0 == UInt8(ascii: "=") }) else { break }
            let key = String(decoding: bytes[i..<end], as: UTF8.self)
            if bytes[end] == UInt8(ascii: "=") {
                let nl = bytes[end...].firstIndex(of: 0x0A) ?? bytes.count
                fields[key] = String(decoding: bytes[(end + 1)..<nl], as: UTF8.self)
                i = nl + 1
            } else {
                var length: UInt64 = 0
                for k in 0..<8 { length |= UInt64(bytes[end + 1 + k]) << (8 * UInt64(k)) }
                let start = end + 9
                fields[key] = String(decoding: bytes[start..<(start + Int(length))], as: UTF8.self)
                i = start + Int(length) + 1
            }
        }
        return fields
    }

    @Test func findingsAreQueryableByRulePathAndRoot() throws {
        let tree = try TempTree(["App/A.xcassets/Logo.imageset/Contents.json": .text("{ nope")])
        let dir = try TempTree()
        let journal = try FakeJournal(dir.path + "/journal.sock")
        let daemon = try DaemonHarness(roots: [tree.path], environment: ["RESWATCH_JOURNAL_SOCKET": journal.path])
        _ = daemon
        let entries = journal.entries(seconds: 10) { $0.contains { $0["RESWATCH_RULE"] == "catalog.contents-invalid" } }
        let finding = try #require(entries.first { $0["RESWATCH_RULE"] == "catalog.contents-invalid" }, "\(entries)")
        #expect(finding["RESWATCH_PATH"] == "App/A.xcassets/Logo.imageset/Contents.json")
        #expect(finding["RESWATCH_ROOT"] == tree.path && finding["RESWATCH_SEVERITY"] == "error" && finding["RESWATCH_EVENT"] == "added")
        #expect(finding["PRIORITY"] == "4", "an error finding is a warning of the daemon's, not a fault")
        #expect(finding["SYSLOG_IDENTIFIER"] == "reswatch" && finding["CODE_FILE"]?.hasSuffix("DaemonCore.swift") == true)
        #expect(finding["MESSAGE"]?.hasPrefix("App/A.xcassets/Logo.imageset/Contents.json: ") == true)
        #expect(
            entries.contains { $0["MESSAGE"]?.contains("watching \(tree.path)") == true && $0["PRIORITY"] == "6" },
            "the daemon's own lines too")
        #expect(!daemon.stderr.contains("catalog.contents-invalid"), "sent to the journal, not repeated on stderr")
    }

    @Test func withoutAJournalLinesGoToStderr() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{ nope")])
        let daemon = try DaemonHarness(roots: [tree.path], environment: ["RESWATCH_JOURNAL_SOCKET": tree.path + "/no-journal.sock"])
        #expect(daemon.stderr.contains("<6>watching \(tree.path)"), "the priority prefix keeps the level: \(daemon.stderr)")
    }

    @Test func valuesWithNewlinesUseTheBinaryForm() {
        let bytes = JournalLogHandler.encode([("MESSAGE", "two\nlines"), ("PRIORITY", "6")])
        #expect(Self.decode(bytes) == ["MESSAGE": "two\nlines", "PRIORITY": "6"])
        #expect(bytes.starts(with: Array("MESSAGE\n".utf8)))
        #expect(JournalLogHandler.fieldName("rule") == "RESWATCH_RULE" && JournalLogHandler.fieldName("a-b.c") == "RESWATCH_A_B_C")
    }
}
