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

    /// A root whose name is not UTF-8 is written `\xHH` in `status` and `watch/list`, as a
    /// finding's path is (not as the private-use character the daemon holds it in), and a client
    /// can send that text back to name the root.
    @Test func aRootNamedInBytesGoesOutEscapedAndComesBack() throws {
        let tree = try TempTree()
        let root = tree.path + "/" + FileName.decode(Array("a".utf8) + [0xFF] + Array("b".utf8))
        #expect(FileName.withCString(root) { mkdir($0, 0o755) } == 0)
        defer { _ = FileName.withCString(root) { rmdir($0) } }
        #expect(mkdir(tree.path + "/other", 0o755) == 0)
        let daemon = try DaemonHarness(roots: [tree.path + "/other"])
        let sent = tree.path + "/a\\xFFb"
        let added = try daemon.call("watch/add", .object(["path": .string(sent)]))
        #expect(added["roots"]?.array?.compactMap(\.string).contains(sent) == true, "\(added)")
        let client = try RawSocketClient(path: daemon.socket)
        #expect(client.send(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n"))
        let status = client.receiveLines(1).first ?? ""
        #expect(status.contains(#""path":"\#(tree.path)/a\\xFFb""#), "\(status)")
        #expect(!status.utf8.contains(0xF4), "no private-use character on the wire: \(status)")
        let removed = try daemon.call("watch/remove", .object(["path": .string(sent)]))
        #expect(removed["roots"]?.array?.compactMap(\.string) == [tree.path + "/other"], "\(removed)")
        // An error naming such a path writes it the same way.
        let inJSON = sent.replacingOccurrences(of: "\\", with: "\\\\")
        #expect(client.send(#"{"jsonrpc":"2.0","id":2,"method":"watch/remove","params":{"path":"\#(inJSON)"}}"# + "\n"))
        let refused = client.receiveLines(1).first ?? ""
        #expect(refused.contains(#"a\\xFFb is not watched""#) && !refused.utf8.contains(0xF4), "\(refused)")
    }

    /// A folder whose name holds the text `\xFF` itself (a backslash, then `xFF`) is named by
    /// that text in every path param, even beside a folder named with the byte: the text as sent
    /// wins when it names something, and `\xHH` is read as a byte only when it does not.
    @Test func aNameThatHoldsBackslashXIsNamedByItsText() throws {
        let tree = try TempTree()
        let literal = tree.path + "/a\\xFFb"
        let set = literal + "/App/Assets.xcassets/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try Data("devices: [iphone]\n".utf8).write(to: URL(fileURLWithPath: literal + "/App/.reswatch.yaml"))
        try Data(#"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"m.png"}]}"#.utf8).write(
            to: URL(fileURLWithPath: set + "/Contents.json"))
        let byteNamed = tree.path + "/" + FileName.decode(Array("a".utf8) + [0xFF] + Array("b".utf8))
        #expect(FileName.withCString(byteNamed) { mkdir($0, 0o755) } == 0)
        defer { _ = FileName.withCString(byteNamed) { rmdir($0) } }
        #expect(mkdir(tree.path + "/other", 0o755) == 0)
        let daemon = try DaemonHarness(roots: [tree.path + "/other"])

        let added = try daemon.call("watch/add", .object(["path": .string(literal)]))
        #expect(added["roots"]?.array?.compactMap(\.string).sorted() == [literal, tree.path + "/other"], "\(added)")
        let scoped = try daemon.call("diagnostics", .object(["path": .string(literal)]))["diagnostics"]?.array ?? []
        #expect(!scoped.isEmpty && scoped.allSatisfy { $0["root"]?.string == literal }, "the missing m.png: \(scoped)")
        let relative = try daemon.call("diagnostics", .object(["path": .string("App")]))["diagnostics"]?.array ?? []
        #expect(relative.count == scoped.count, "\(relative)")
        #expect(try daemon.call("recheck", .object(["root": .string(literal)]))["generation"]?.int != nil)
        let plan = try daemon.client().call(FixRequest.self, FixParams(path: set))
        #expect(plan.root == literal && plan.left.map(\.rule).contains("icon.file-missing"), "\(plan.left)")
        let removed = try daemon.call("watch/remove", .object(["path": .string(literal)]))
        #expect(removed["roots"]?.array?.compactMap(\.string) == [tree.path + "/other"], "\(removed)")
        // With the text's folder gone, the same text names the byte's folder, as `status` writes it.
        try FileManager.default.removeItem(atPath: literal)
        let again = try daemon.call("watch/add", .object(["path": .string(literal)]))
        #expect(again["roots"]?.array?.compactMap(\.string).contains(literal) == true, "\(again)")
        #expect(try daemon.call("status")["roots"]?.array?.contains { $0["path"]?.string == literal } == true)
    }

    /// A rule module whose file name is not UTF-8 and does not load: `status`'s `rule_errors`
    /// names it `\xHH`, and so does any path `status` carries (the socket's, the log's).
    @Test func aModuleErrorAndTheSocketPathGoOutEscaped() throws {
        let rules = try TempTree()
        let module = rules.path + "/" + FileName.decode(Array("te".utf8) + [0xFE] + Array("am.yaml".utf8))
        let fd = FileName.withCString(module) { open($0, O_WRONLY | O_CREAT, 0o644) }
        #expect(fd >= 0)
        #expect(write(fd, "rules: [\n", 9) == 9)
        close(fd)
        defer { _ = FileName.withCString(module) { unlink($0) } }
        let tree = try TempTree()
        #expect(mkdir(tree.path + "/root", 0o755) == 0)
        let daemon = try DaemonHarness(roots: [tree.path + "/root"], arguments: ["--rules", rules.path])
        let client = try RawSocketClient(path: daemon.socket)
        #expect(client.send(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n"))
        let status = client.receiveLines(1).first ?? ""
        #expect(status.contains(#""file":"\#(rules.path)/te\\xFEam.yaml""#), "\(status)")
        #expect(!status.utf8.contains(0xF4), "no private-use character on the wire: \(status)")

        let socket = "/run/r" + FileName.decode([0xFF]) + ".sock"
        var result = StatusResult(
            roots: [], generation: 0, uptimeSeconds: 0, ruleErrors: [], watches: 0, settleMilliseconds: 20, socket: socket)
        result.log = "/var/log/" + FileName.decode([0xFF])
        let line = String(decoding: RPCEncoder.response(id: .number(1), result: result), as: UTF8.self)
        #expect(line.contains(#""socket":"\/run\/r\\xFF.sock""#) || line.contains(#""socket":"/run/r\\xFF.sock""#), "\(line)")
        #expect(line.contains(#"r\\xFF"#) && !line.utf8.contains(0xF4), "\(line)")
    }
}
