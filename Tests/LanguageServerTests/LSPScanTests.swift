import Foundation
import ImageFacts
import ReswatchProtocol
import TestSupport
import Testing

/// An editor that connects while the daemon is still scanning its folder (the daemon's own start,
/// or another editor's `watch/add`): `watch/list` already names the root and `watch/add` returns
/// at once, but the findings are not there yet. A pull then answers "no findings yet", never an
/// empty report that reads as a clean file.
@Suite struct LSPScanTests {
    @Test func aFolderTheDaemonIsStillScanningIsNotReportedClean() throws {
        let project = try LSPProtocolTests.project()
        try project.addImageSets(3_000, in: "Big/Assets.xcassets")
        let daemon = try DaemonHarness(roots: [project.path], waitReady: false)
        defer { _ = daemon.stop() }
        var scanning = false
        for _ in 0..<2_000 {
            if let status = try? daemon.call("status", timeoutMilliseconds: 2000) {
                scanning = status["roots"]?.array?.first?["state"]?.string == "scanning"
                break
            }
            usleep(5_000)
        }
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket, "--no-start-daemon"])
        _ = try #require(lsp.start(folders: [project.path], capabilities: LSPPullTests.pulling))
        let icon = project.path + "/" + LSPProtocolTests.set + "/icon.png"
        // Pulled again and again from the start: every answer is "not yet" or the real findings.
        var answers = 0
        var notYet = 0
        var last: JSONValue?
        let deadline = Date().addingTimeInterval(120)
        while LSPPullTests.codes(last) != ["icon.size-mismatch"] && Date() < deadline {
            last = LSPPullTests.pull(lsp, icon)
            answers += 1
            if last?["result"]?["kind"]?.string == "full" {
                #expect(LSPPullTests.codes(last) == ["icon.size-mismatch"], "answer \(answers) reads as clean: \(String(describing: last))")
                if LSPPullTests.codes(last) != ["icon.size-mismatch"] { return }
            } else {
                #expect(last?["error"]?["code"]?.int == -32802, "\(String(describing: last))")
                notYet += 1
            }
            usleep(20_000)
        }
        #expect(scanning, "the editor connected while the daemon was scanning (the case under test)")
        #expect(LSPPullTests.codes(last) == ["icon.size-mismatch"], "the findings came once the scan was done: \(String(describing: last))")
    }
}
