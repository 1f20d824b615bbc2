import Foundation
import ImageFacts
import ReswatchProtocol
import SystemCalls
import TestSupport
import Testing

/// The lines the real daemon sends are `JSONEncoder`'s bytes (sorted keys, its escapes and
/// number text), though `CompactJSON` writes them: read back and written again by `JSONEncoder`,
/// every line of a subscription, a status and a diagnostics reply comes out the same, with file
/// names that are not UTF-8 or that hold a newline, quotes, a tab and an escape.
@Suite struct WireBytesTests {
    @Test func theDaemonsLinesAreJSONEncodersBytes() throws {
        let tree = try TempTree()
        let set = try tree.addMarketingIconApp()
        let daemon = try DaemonHarness(roots: [tree.path])
        let client = try RawSocketClient(path: daemon.socket)
        #expect(client.send(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"# + "\n"))
        var lines = client.receiveLines(1)
        for name in [
            FileName.decode(Array("Icon".utf8) + [0xFF] + Array(".png".utf8)), "x\n\"y\"\t\u{1B}[31m\\z é.png",
        ] {
            let fd = FileName.withCString(set + "/" + name) { open($0, O_WRONLY | O_CREAT, 0o644) }
            #expect(fd >= 0)
            close(fd)
        }
        try daemon.sync()
        lines += client.receiveLines(2, quietMilliseconds: 5000)  // diagnostics/changed, status/changed
        #expect(client.send(#"{"jsonrpc":"2.0","id":2,"method":"status"}"# + "\n"))
        #expect(client.send(#"{"jsonrpc":"2.0","id":"three","method":"diagnostics"}"# + "\n"))
        lines += client.receiveLines(2)

        #expect(lines.contains { $0.contains("diagnostics/changed") && $0.contains("Icon\\\\xFF.png") }, "\(lines)")
        #expect(lines.contains { $0.contains(#""id":"three""#) }, "\(lines)")
        #expect(lines.count >= 5, "\(lines)")
        for line in lines {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            #expect(String(decoding: RPCEncoder.foundationLine(value), as: UTF8.self) == line + "\n")
        }
    }
}
