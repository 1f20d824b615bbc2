import Foundation
import ImageFacts
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// `reswatch status --follow` and the bar formats, against the real daemon over its socket.
@Suite(.serialized) struct StatusFollowTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"

    static func tree() throws -> TempTree {
        try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"icon.png\"}]}"),
            set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
    }

    /// A break and a fix each print a new line, driven by status/changed (no polling: the
    /// follower has no timer); when the daemon goes away it prints `down` and keeps running.
    @Test func followPrintsALinePerChangeAndSurvivesTheDaemon() throws {
        let tree = try Self.tree()
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        let follow = try LineProcess(Repo.binary, ["status", "--follow", "--socket", daemon.socket, "--format", "{state} {errors}E"])
        defer { follow.stop() }
        // The project has no Info.plist (an info): no errors, no warnings.
        #expect(follow.nextLine() == "ok 0E")

        try tree.write([Self.set + "/icon.png": .png(PNGSpec(width: 1000, height: 1024))])  // break
        let started = Date()
        let broken = follow.nextLine()
        let afterBreak = Date().timeIntervalSince(started)
        #expect(broken == "error 1E")

        try tree.write([Self.set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024))])  // fix
        #expect(follow.nextLine() == "ok 0E")
        print("status --follow: a new line \(Int(afterBreak * 1000)) ms after the write (settle 20 ms)")

        #expect(daemon.stop() == 0)
        #expect(follow.nextLine() == "down 0E", "the daemon went away: the bar says so")
        #expect(follow.process.isRunning, "--follow keeps running, to reconnect")
    }

    /// With no daemon, --follow starts in `down` and turns `ok` when one starts on the socket.
    @Test func followReconnects() throws {
        let tree = try Self.tree()
        let dir = try TempTree()
        let socket = dir.path + "/later.sock"
        let follow = try LineProcess(Repo.binary, ["status", "--follow", "--socket", socket, "--format", "waybar"])
        defer { follow.stop() }
        let down = try #require(follow.nextLine())
        #expect(down.contains("\"class\":\"down\"") && down.contains("\"text\":\"down\""))
        let daemon = try DaemonHarness(roots: [tree.path], socket: socket)
        defer { _ = daemon.stop() }
        let up = follow.nextLine(timeoutSeconds: 30)
        #expect(up?.contains("\"class\":\"ok\"") == true, "\(up ?? "nothing")")
    }

    /// A bar polling once with no daemon: the `down` state on stdout, exit 0; text still fails.
    @Test func oneShotWithoutADaemon() throws {
        let dir = try TempTree()
        let socket = dir.path + "/none.sock"
        for format in ["waybar", "i3bar", "i3blocks", "polybar", "tmux", "{state}"] {
            let r = try runCommand(Repo.binary, ["status", "--socket", socket, "--format", format])
            #expect(r.status == 0, "\(format): \(r.stderr)")
            #expect(r.stdout.contains("down"), "\(format): \(r.stdout)")
            #expect(r.stderr.contains("no reswatch daemon answers"))
        }
        let text = try runCommand(Repo.binary, ["status", "--socket", socket])
        #expect(text.status == 2 && text.stderr.contains("no reswatch daemon answers"))
        let bad = try runCommand(Repo.binary, ["status", "--socket", socket, "--format", "{errs}"])
        #expect(bad.status == 2 && bad.stderr.contains("unknown field '{errs}'"))
    }

    /// Every bar format from a live daemon with an error in its tree.
    @Test func barFormatsFromALiveDaemon() throws {
        let tree = try Self.tree()
        try tree.write([Self.set + "/icon.png": .png(PNGSpec(width: 1000, height: 1024))])
        let daemon = try DaemonHarness(roots: [tree.path])
        func run(_ format: String) throws -> String {
            let r = try runCommand(Repo.binary, ["status", "--socket", daemon.socket, "--format", format])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.trimmingCharacters(in: .newlines)
        }
        let waybar = try JSONSerialization.jsonObject(with: Data(try run("waybar").utf8)) as? [String: Any]
        #expect(waybar?["class"] as? String == "error" && waybar?["text"] as? String == "1E 0W")
        #expect((waybar?["tooltip"] as? String)?.contains(tree.path) == true)
        let i3 = try JSONSerialization.jsonObject(with: Data(try run("i3blocks").utf8)) as? [String: Any]
        #expect(i3?["full_text"] as? String == "reswatch 1E 0W" && i3?["urgent"] as? Bool == true)
        // The i3bar protocol, as i3bar or swaybar read a status_command: header, "[", then one
        // array per state; closing the endless array makes it a JSON document.
        let follow = try LineProcess(Repo.binary, ["status", "--follow", "--socket", daemon.socket, "--format", "i3bar"])
        defer { follow.stop() }
        let lines = [follow.nextLine(), follow.nextLine(), follow.nextLine()].compactMap { $0 }
        #expect(lines.count == 3 && lines[0] == "{\"version\":1}" && lines[1] == "[", "\(lines)")
        let states = try JSONSerialization.jsonObject(with: Data(("[" + (lines.last ?? "") + "]").utf8)) as? [[[String: Any]]]
        #expect(states?.first?.first?["full_text"] as? String == "reswatch 1E 0W")
        #expect(try run("polybar") == "%{F#ff4444}1E 0W%{F-}")
        #expect(try run("tmux") == "#[fg=#ff4444]1E 0W#[default]")
        #expect(try run("{errors}/{warnings}/{infos} {roots} {state}") == "1/0/1 1 error")
    }
}

/// A watched root with nothing to check is said in `status`, not shown as clean (issue 26).
@Suite struct EmptyRootStatusTests {
    @Test func aRootWithNothingToCheckSaysSoUntilSomethingArrives() throws {
        let tree = try TempTree(["Sources/main.swift": .text("print(1)\n")])
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let root = try #require(try daemon.call("status")["roots"]?.array?.first)
        #expect(root["judged"]?.int == 0)
        #expect(root["reason"]?.string?.hasPrefix("nothing to check: 1 file, among them 1 source file") == true, "\(root)")
        let text = try runCommand(Repo.binary, ["status", "--socket", daemon.socket])
        #expect(text.stdout.contains("nothing to check"), "\(text.stdout)")
        try tree.write(["App/Info.plist": .text("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n")])
        try daemon.sync()
        let after = try #require(try daemon.call("status")["roots"]?.array?.first)
        #expect((after["judged"]?.int ?? 0) > 0)
        #expect(after["reason"] == .null, "\(after)")
    }
}
