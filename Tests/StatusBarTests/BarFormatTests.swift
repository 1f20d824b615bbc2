import Findings
import Foundation
import ReswatchProtocol
import StatusBar
import Testing

/// Each bar format against the shape its bar documents, for every state a bar can be in.
@Suite struct BarFormatTests {
    static func status(errors: Int = 0, warnings: Int = 0, infos: Int = 0, state: RootStatus.State = .ready, ruleErrors: Int = 0)
        -> StatusResult
    {
        StatusResult(
            roots: [
                RootStatus(
                    path: "/src/App", state: state, files: 120, projects: 1, errors: errors, warnings: warnings, infos: infos,
                    lastChange: nil, recrawls: 0, reason: state == .degraded ? "inotify watch limit reached" : nil)
            ],
            generation: 7, uptimeSeconds: 3, ruleErrors: (0..<ruleErrors).map { ModuleError(file: "m.yaml", line: $0, message: "bad") },
            watches: 4, settleMilliseconds: 20, socket: "/run/s.sock")
    }

    static let states: [BarState] = [
        BarState(status()), BarState(status(warnings: 2)), BarState(status(errors: 3, warnings: 1, infos: 1)),
        BarState(status(state: .scanning)), BarState(status(state: .degraded)), BarState(status(ruleErrors: 1)),
        .down("connect: No such file or directory"),
    ]

    @Test func levels() {
        #expect(Self.states.map(\.level) == [.ok, .warning, .error, .degraded, .degraded, .degraded, .down])
        #expect(Self.states[2].text == "3E 1W" && Self.states[2].percentage == 40)
        #expect(Self.states[0].percentage == 100 && Self.states[6].percentage == 0 && Self.states[6].text == "down")
        #expect(Self.states[4].tooltip.contains("inotify watch limit reached"), "the tooltip says why a root is degraded")
        #expect(Self.states[5].tooltip.contains("rule module error"), "a module that did not load is never a quiet ok")
        let nothing = BarState(
            StatusResult(roots: [], generation: 0, uptimeSeconds: 1, ruleErrors: [], watches: 0, settleMilliseconds: 20, socket: "/s"))
        #expect(nothing.level == .degraded && nothing.tooltip.contains("no roots watched"), "a daemon watching nothing is not ok")
    }

    /// waybar's custom module, `return-type: json`: an object with text, tooltip, class and
    /// percentage (waybar-custom(5)); class names the CSS class the user styles.
    @Test func waybar() throws {
        for state in Self.states {
            let line = BarFormat.waybar.line(state)
            #expect(!line.contains("\n"), "one line per update")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["text", "tooltip", "class", "percentage"])
            #expect(object["text"] as? String == state.text)
            #expect((object["tooltip"] as? String)?.hasPrefix("reswatch: ") == true)
            #expect(["ok", "warning", "error", "degraded", "down"].contains(object["class"] as? String ?? ""))
            let percentage = try #require(object["percentage"] as? Int)
            #expect((0...100).contains(percentage))
        }
    }

    /// One block of the i3bar protocol (i3bar-protocol(7) "Blocks in detail"): full_text is
    /// required; color is #RRGGBB; urgent is a boolean; no key outside the documented set.
    @Test func i3blocks() throws {
        let documented: Set<String> = [
            "full_text", "short_text", "color", "background", "border", "min_width", "align", "urgent", "name", "instance",
            "separator", "separator_block_width", "markup",
        ]
        for state in Self.states {
            let line = BarFormat.i3blocks.line(state)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys).isSubset(of: documented))
            #expect((object["full_text"] as? String)?.isEmpty == false)
            let color = try #require(object["color"] as? String)
            #expect(color.wholeMatch(of: /#[0-9a-f]{6}/) != nil)
            #expect(object["urgent"] as? Bool == (state.level == .error))
        }
    }

    /// The i3bar protocol (i3bar-protocol(7)): a header with "version", then an endless array whose
    /// elements are arrays of blocks; every line after the first array starts with a comma.
    @Test func i3barProtocol() throws {
        let format = BarFormat.i3bar
        #expect(format.preamble == ["{\"version\":1}", "["])
        let header = try #require(try JSONSerialization.jsonObject(with: Data(format.preamble[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 1)
        var stream = format.preamble[1]
        for (i, state) in Self.states.enumerated() { stream += "\n" + format.line(state, first: i == 0) }
        let closed = try #require(try JSONSerialization.jsonObject(with: Data((stream + "]").utf8)) as? [[[String: Any]]])
        #expect(closed.count == Self.states.count && closed.allSatisfy { $0.count == 1 && $0[0]["name"] as? String == "reswatch" })
        #expect(format.line(Self.states[0], first: false).hasPrefix(",["))
    }

    /// polybar's format tags: %{F#rrggbb} … %{F-}, balanced, nothing else that polybar parses.
    @Test func polybar() {
        for state in Self.states {
            let line = BarFormat.polybar.line(state)
            #expect(line.wholeMatch(of: /%\{F#[0-9a-f]{6}\}[^%{}]*%\{F-\}/) != nil, "\(line)")
        }
    }

    /// tmux's embedded styles in #() output: #[fg=#rrggbb] … #[default], no other '#'.
    @Test func tmux() {
        for state in Self.states {
            let line = BarFormat.tmux.line(state)
            #expect(line.wholeMatch(of: /#\[fg=#[0-9a-f]{6}\][^#]*#\[default\]/) != nil, "\(line)")
        }
    }

    @Test func templates() throws {
        let error = Self.states[2]
        #expect(try BarFormat.parse("{errors}E {warnings}W").line(error) == "3E 1W")
        #expect(try BarFormat.parse("{state} {{{generation}}} {roots}/{files}").line(error) == "error {7} 1/120")
        #expect(try BarFormat.parse("{text}").line(.down("x")) == "down")
        #expect(throws: BarFormat.FormatError.self) { try BarFormat.parse("{errs}") }
        #expect(throws: BarFormat.FormatError.self) { try BarFormat.parse("{errors") }
        #expect(throws: BarFormat.FormatError.self) { try BarFormat.parse("errors}") }
        #expect(throws: BarFormat.FormatError.self) { try BarFormat.parse("xml") }
        do {
            _ = try BarFormat.parse("{errs}")
        } catch {
            #expect(error.description.contains("unknown field '{errs}'") && error.description.contains("warnings"))
        }
    }
}
