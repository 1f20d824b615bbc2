import Foundation
import TestSupport
import Testing

/// `check --format html` loaded in a real browser (Debian's chromium, headless; `make test`
/// installs it): every slot of every grid is drawn, every embedded picture decodes, the counts
/// are the JSON report's, and the page asks the network for nothing.
@Suite struct HTMLReportBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Chromium's own services (updates, accounts, time): requests the browser makes, not the page.
    static let browserHosts = ["google.com", "googleapis.com", "gvt1.com", "gstatic.com"]

    struct Loaded {
        let dom: String
        /// The http(s) URLs the page requested.
        let requests: [String]
    }

    /// The page after load (script run), and the network requests it made (chromium's net log).
    static func load(_ page: String, in tree: TempTree) throws -> Loaded {
        let chromium = try #require(Self.chromium, "chromium is not installed: `make test` installs Debian's chromium")
        let log = tree.path + "/netlog.json"
        let result = try runCommand(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-default-apps", "--user-data-dir=\(tree.path)/profile",
                "--virtual-time-budget=8000", "--log-net-log=\(log)", "--dump-dom", URL(fileURLWithPath: page).absoluteString,
            ])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        var requests: [String] = []
        if let data = FileManager.default.contents(atPath: log),
            let events = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["events"] as? [[String: Any]]
        {
            for event in events {
                guard let url = (event["params"] as? [String: Any])?["url"] as? String, url.hasPrefix("http"),
                    let host = URL(string: url)?.host, !browserHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) })
                else { continue }
                requests.append(url)
            }
        }
        return Loaded(dom: result.stdout, requests: requests)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// The entries of every app icon set and brand-asset image set under `root` (what the grids draw).
    static func slotCount(under root: String) -> Int {
        var total = 0
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            let skip = ["Pods/", "node_modules/", "Carthage/", ".git/", "build/", "DerivedData/", ".build/"]
            if path.hasSuffix(".icon/icon.json"), !skip.contains(where: { path.hasPrefix($0) || path.contains("/" + $0) }),
                let data = FileManager.default.contents(atPath: root + "/" + path),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                // An Icon Composer bundle: one slot per layer image it names.
                let layers = (json["groups"] as? [[String: Any]] ?? []).flatMap { $0["layers"] as? [[String: Any]] ?? [] }
                total += Set(layers.compactMap { $0["image-name"] as? String }).count
                continue
            }
            guard path.hasSuffix("/Contents.json"), !skip.contains(where: { path.hasPrefix($0) || path.contains("/" + $0) }),
                path.hasSuffix(".appiconset/Contents.json") || path.hasSuffix(".launchimage/Contents.json")
                    || (path.contains(".brandassets/") && path.hasSuffix(".imageset/Contents.json")),
                !path.contains(".framework/")
            else { continue }
            guard let data = FileManager.default.contents(atPath: root + "/" + path),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let images = json["images"] as? [Any]
            else { continue }
            total += images.count
        }
        return total
    }

    /// Checks one tree's page against its JSON report.
    static func judge(_ root: String, tree: TempTree) throws -> Loaded {
        let page = tree.path + "/report.html"
        let json = tree.path + "/report.json"
        let run = try runCommand(Repo.binary, ["check", "--format", "html", "--output", page, "--format", "json", "--output", json, root])
        #expect(run.status <= 1, "\(run.stderr)")
        let loaded = try load(page, in: tree)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        let dom = loaded.dom
        for (key, severity) in [("errors", "error"), ("warnings", "warning"), ("infos", "info")] {
            let expected = summary[key] as? Int ?? -1
            #expect(dom.contains("data-\(key)=\"\(expected)\""), "\(root): \(key)")
            #expect(
                count("class=\"finding\" data-severity=\"\(severity)\"", in: dom) == expected, "\(root): every \(severity) is listed once")
        }
        // Every picture decoded in the browser (the page's script counts them).
        let decoded = try #require(dom.firstMatch(of: /data-images="(\d+) of (\d+) decoded"/), "the page's script ran")
        #expect(decoded.1 == decoded.2, "\(root): \(decoded.0)")
        #expect(!dom.contains("class=\"broken\"") && !dom.contains(" broken\""), "no picture is broken")
        #expect(count("<figure class=\"slot", in: dom) == slotCount(under: root), "\(root): every slot of every grid is drawn")
        #expect(loaded.requests.isEmpty, "the page made no network request: \(loaded.requests)")
        return loaded
    }

    @Test func theExamplesPageShowsItsIconSetAsAGrid() throws {
        let tree = try TempTree()
        let loaded = try Self.judge(Repo.root + "/Examples/SampleApp", tree: tree)
        let dom = loaded.dom
        // The missing 83.5@2x slot is a marked hole, the 121x120 icon is flagged in its slot.
        let hole = try #require(dom.range(of: "data-slot=\"ipad 83.5x83.5@2x\""))
        let holeSlot = dom[hole.lowerBound...].prefix { $0 != "\n" }
        #expect(holeSlot.contains("class=\"hole\"") && holeSlot.contains("icon.file-missing"), "\(holeSlot)")
        let wrong = try #require(dom.range(of: "data-slot=\"iphone 60x60@2x\""))
        let wrongSlot = dom[dom.index(wrong.lowerBound, offsetBy: -80)...].prefix(3000)
        #expect(wrongSlot.contains("slot error") && wrongSlot.contains("121×120") && wrongSlot.contains("icon.size-mismatch"))
        // The filters are shown (the script ran) and list the rules reported.
        #expect(dom.contains("<form id=\"filters\">") && dom.contains("<option>icon.size-mismatch</option>"))
    }

    /// Names with markup and bytes that are not UTF-8, a 20,000 × 20,000 PNG, and an Icon Composer
    /// layer that is an SVG with script: the page stays well-formed and inert.
    @Test(.timeLimit(.minutes(2))) func hostileTreesGiveAnInertPage() throws {
        let tree = try TempTree()
        let set = try tree.addMarketingIconApp()
        let hostile = "<img src=x onerror=alert(1)>&\"'.png"
        let png = try Data(contentsOf: URL(fileURLWithPath: set + "/m.png"))
        try png.write(to: URL(fileURLWithPath: set + "/" + hostile))
        let raw = Array("Icon".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let rawPath = Array((set + "/").utf8) + raw + [0]
        let fd = rawPath.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(fd >= 0)
        _ = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // A valid 20,000 × 20,000 PNG (1.2 GB of pixels, a few MB of file), made with zlib.
        let huge = set + "/huge.png"
        let script = """
            import struct, zlib, sys
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            c = zlib.compressobj(9); row = bytes(20000 * 3 + 1); body = b''.join(c.compress(row) for _ in range(20000)) + c.flush()
            open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 20000, 20000, 8, 2, 0, 0, 0)) + chunk(b'IDAT', body) + chunk(b'IEND', b''))
            """
        #expect(try runCommand("/usr/bin/python3", ["-c", script, huge]).status == 0)
        let contents =
            #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"huge.png"},"#
            + #"{"idiom":"iphone","size":"60x60","scale":"2x","filename":"<img src=x onerror=alert(1)>&\"'.png"},"#
            + #"{"idiom":"iphone","size":"60x60","scale":"3x","filename":"pipe.png"}]}"#
        // A FIFO where an icon should be: read by nobody (a reader would wait for a writer forever).
        #expect(mkfifo(set + "/pipe.png", 0o644) == 0)
        try tree.write(["App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(contents)])
        try tree.write([
            "App/AppIcon.icon/icon.json": .text(#"{"groups":[{"layers":[{"image-name":"evil.svg","name":"evil"}]}]}"#),
            "App/AppIcon.icon/Assets/evil.svg": .text(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#),
        ])
        let page = tree.path + "/report.html"
        let run = try runCommand(Repo.binary, ["check", "--format", "html", "--output", page, tree.path])
        #expect(run.status <= 1, "\(run.stderr)")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(Self.count("<script", in: text) == 1, "only the page's own script")
        #expect(!text.contains("<svg") && !text.contains("<img"), "no markup from the tree")
        #expect(text.contains("&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&apos;.png"))
        #expect(
            text.contains("Icon\\xFF\\xFE.png") || text.contains("Icon\\xff\\xfe.png"), "a name that is not UTF-8 is shown as its bytes")
        #expect(text.utf8.count < 1 << 20, "the huge PNG is not drawn: \(text.utf8.count) bytes")
        #expect(text.contains("huge.png") && text.contains("cannot be drawn"), "its slot says why it has no picture")
        #expect(text.contains("a FIFO (named pipe)"), "the FIFO's slot says what it is")
        let loaded = try Self.load(page, in: tree)
        #expect(loaded.dom.contains("data-slot=\"App Store 1024x1024\""))
        #expect(!loaded.dom.contains("<svg") && Self.count("<script", in: loaded.dom) == 1, "nothing from the tree became markup")
        #expect(loaded.dom.contains("not drawn here (SVG layer)"), "the SVG layer is listed, not drawn")
        #expect(loaded.requests.isEmpty, "\(loaded.requests)")
    }

    /// `fix --format html`: each image change before and after, the text edits as diffs, what is
    /// left; the plan changes nothing.
    @Test func theFixPlanPageShowsEachImageBeforeAndAfter() throws {
        let tree = try TempTree()
        #expect(try runCommand("/bin/cp", ["-a", Repo.root + "/Examples/SampleApp/.", tree.path + "/app"]).status == 0)
        let icon = tree.path + "/app/SampleApp/Assets.xcassets/AppIcon.appiconset/Icon-iphone-60@2x.png"
        let before = try Data(contentsOf: URL(fileURLWithPath: icon))
        let page = tree.path + "/fix.html"
        let run = try runCommand(Repo.binary, ["fix", "--format", "html", "--output", page, tree.path + "/app"])
        #expect(run.status == 1, "findings remain: \(run.stdout)\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: icon)) == before, "a plan changes nothing")
        let dom = try Self.load(page, in: tree).dom
        #expect(Self.count("data-state=\"before\"", in: dom) == 3 && Self.count("data-state=\"after\"", in: dom) == 3, "3 image changes")
        #expect(dom.contains("before: 121×120, opaque") && dom.contains("after: 120×120, opaque"))
        #expect(dom.contains("<pre class=\"diff\">") && dom.contains("Left as they are (3)"))
        let decoded = try #require(dom.firstMatch(of: /data-images="(\d+) of (\d+) decoded"/))
        #expect(decoded.1 == decoded.2 && decoded.1 != "0", "\(decoded.0)")
        let misuse = try runCommand(Repo.binary, ["fix", "--output", page, tree.path + "/app"])
        #expect(misuse.status == 2 && misuse.stderr.contains("--format html"))
    }

    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone"))
    func corpusAppsPagesDrawEverySlot() throws {
        for app in ["NetNewsWire", "iOctocat", "HomeAssistant", "DOOM-iOS-tvOS-2022", "Simplenote"] {
            let tree = try TempTree()
            _ = try Self.judge(Repo.corpus + "/" + app, tree: tree)
        }
    }
}
