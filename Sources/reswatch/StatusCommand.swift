import ArgumentParser
import Flows
import Foundation
import ReswatchProtocol
import StatusBar
import SystemCalls

/// `reswatch status`: the daemon's roots and counts, for people (text), programs (json) and
/// status bars (waybar, i3bar, polybar, tmux, or a template), once or `--follow`ing changes.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Shows the daemon's roots, their state and counts (also for status bars).",
        discussion: """
            Formats: text, json, waybar (return-type json: text, tooltip, class, percentage), i3bar (the \
            i3bar protocol for i3bar's and swaybar's status_command: a header, then an endless array; \
            use it with --follow), i3blocks (one JSON block a line, for format=json), polybar (%{F…} colours), tmux (#[fg=…] styles), or a template with named \
            fields in braces: errors, warnings, infos, roots, files, generation, state, text, \
            percentage (e.g. '{errors}E {warnings}W'; '{{' for a brace). The state is one of ok, \
            warning, error, degraded (a root scanning or degraded, or a rule module that failed to \
            load: something is not checked) and down (no daemon answers).

            With a bar format, a missing daemon prints the 'down' state and exits 0, so the bar \
            shows it. --follow prints a line now and one per change (driven by the daemon's \
            status/changed notifications, not by polling); it reconnects every 2 s while no daemon \
            answers and never exits on its own. See docs/status-bars.md.
            """)
    @OptionGroup var client: ClientOptions
    @Option(help: "text, json, waybar, i3bar, i3blocks, polybar, tmux, or a template such as '{errors}E {warnings}W'.")
    var format = "text"
    @Flag(help: "Print a new line each time the state changes (for tail-style bar modules).") var follow = false

    enum Style {
        case text, json
        case bar(BarFormat)
    }

    func style() throws -> Style {
        switch format {
        case "text": return .text
        case "json": return .json
        default:
            do { return .bar(try BarFormat.parse(format)) } catch { throw ValidationError(error.description) }
        }
    }

    func validate() throws { _ = try style() }

    func run() throws {
        let style = try style()
        if case .bar(let bar) = style { bar.preamble.forEach(emit) }
        if follow {
            var first = true
            StatusFollower(socket: client.path).run { state, status in
                switch style {
                case .text:
                    emit("reswatch: \(state.level.rawValue): \(state.text)" + (status.map { " (generation \($0.generation))" } ?? ""))
                case .json: emit(status.map(Self.compactJSON) ?? "{\"state\":\"down\"}")
                case .bar(let bar): emit(bar.line(state, first: first))
                }
                first = false
            }
        }
        switch style {
        case .text: printText(try client.call(StatusRequest.self, NoParams()))
        case .json: printJSON(try client.call(StatusRequest.self, NoParams()))
        case .bar(let bar):
            let state: BarState
            do { state = BarState(try ReswatchClient(path: client.path).call(StatusRequest.self)) } catch {
                StandardError.say("reswatch: \(error)")
                state = .down(error.description)
            }
            emit(bar.line(state))
        }
    }

    /// One line, written at once (a pipe reader sees it without waiting for a buffer to fill).
    func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    static func compactJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    func printText(_ status: StatusResult) {
        print(
            "reswatch daemon: generation \(status.generation), up \(Int(exactly: status.uptimeSeconds.rounded(.down)) ?? 0) s, \(status.watches) watches, settle \(status.settleMilliseconds) ms"
        )
        if let how = status.startedBy {
            print(
                "  started \(how)" + (status.idleExitSeconds.map { "; exits after \($0) s without a client" } ?? "")
                    + "; its log: \(status.log ?? "not kept (stderr was not a file, the journal or a terminal)")")
        }
        if status.roots.isEmpty { print("  no roots watched (add one with 'reswatch watch add DIR')") }
        // A root's path, a reason (which may name a file) and a module error are escaped
        // (FileName.display): the daemon passes them on as it read them.
        for r in status.roots {
            print(
                "  \(FileName.display(r.path)): \(r.state.rawValue), \(r.files) files, \(r.projects) project\(r.projects == 1 ? "" : "s"): \(r.errors) errors, \(r.warnings) warnings, \(r.infos) info"
                    + (r.recrawls > 0 ? ", \(r.recrawls) recrawls" : "") + (r.lastChange.map { ", last change \($0)" } ?? ""))
            if let reason = r.reason { print("    \(FileName.display(reason))") }
        }
        for e in status.ruleErrors { print("  rule module error: \(FileName.display(e.description))") }
    }
}
