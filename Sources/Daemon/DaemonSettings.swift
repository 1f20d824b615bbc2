import Foundation
import ProjectModel
import SystemCalls
import Yams

/// One setting of the daemon: its key in the config file, the command-line option that overrides
/// it (if there is one), what it means, and how a config file's value is read. The table below is
/// the one declaration: the config file reader, `reswatch daemon --help`, the example config
/// (`reswatch daemon --example-config`, config/daemon.example.yaml) and docs/configuration.md come
/// from it, and tests compare them.
package struct DaemonSetting: Sendable {
    package let key: String
    /// `--key` on the command line, where the setting has one.
    package let option: String?
    /// One sentence, for `--help`.
    package let summary: String
    /// The example config's comment lines about it (without `# `).
    package let comment: [String]
    /// The example config's value line (commented out where the default is to leave it unset).
    package let example: String
    let read: @Sendable (inout DaemonConfiguration, Node, ConfigFileContext) throws(ConfigFileError) -> Void
}

/// What reading one value of a config file needs: where relative paths start, and how to fail.
struct ConfigFileContext {
    let file: String
    let key: String
    let line: Int?

    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileSystem.absolutePath((file as NSString).deletingLastPathComponent + "/" + path)
    }

    func fail(_ message: String) -> ConfigFileError { ConfigFileError(file: file, line: line, message: "\(key): \(message)") }

    func strings(_ node: Node, _ what: String) throws(ConfigFileError) -> [String] {
        guard let list = node.sequence?.compactMap(\.string) else { throw fail("expected a list of \(what)") }
        return list
    }

    func int(_ node: Node, in range: ClosedRange<Int>, _ what: String) throws(ConfigFileError) -> Int {
        guard let n = node.int, range.contains(n) else { throw fail("expected \(what)") }
        return n
    }

    func text(_ node: Node, _ what: String) throws(ConfigFileError) -> String {
        guard let s = node.string, !s.isEmpty else { throw fail("expected \(what)") }
        return s
    }
}

package enum DaemonSettings {
    /// Milliseconds of quiet that end a burst (command line and config file alike).
    package static let settleRange = 0...60_000

    package static let all: [DaemonSetting] = [
        DaemonSetting(
            key: "roots", option: nil, summary: "Directories to watch (absolute, or relative to the config file).",
            comment: ["Directories to watch (absolute, or relative to this file)."], example: "roots:\n  - /srv/checkouts/ios-app"
        ) { c, v, x throws(ConfigFileError) in c.roots += try x.strings(v, "directories").map(x.absolute) },
        DaemonSetting(
            key: "socket", option: "socket", summary: "Unix socket path.",
            comment: [
                "Unix socket (default: $RESWATCH_SOCKET, else $XDG_RUNTIME_DIR/reswatch/reswatch.sock,",
                "else /tmp/reswatch-$UID/reswatch.sock).",
            ], example: "# socket: /run/reswatch/reswatch.sock"
        ) { c, v, x throws(ConfigFileError) in c.socketPath = x.absolute(try x.text(v, "a socket path")) },
        DaemonSetting(
            key: "log-file", option: "log-file",
            summary: "Also write JSON lines (diagnostics added/removed, state changes, rescans, module errors) here.",
            comment: [
                "JSON lines: every diagnostic added/removed, state change, rescan and module error.",
                "Reopened on SIGUSR1 (logrotate: postrotate kill -USR1 $(pidof reswatch)).",
            ], example: "# log-file: /var/log/reswatch/events.jsonl"
        ) { c, v, x throws(ConfigFileError) in c.logFile = x.absolute(try x.text(v, "a file path")) },
        DaemonSetting(
            key: "settle-ms", option: "settle-ms", summary: "Quiet time that ends a burst of file events (default 20, at most 60000).",
            comment: ["A burst of file events is processed after this many ms of quiet ..."], example: "settle-ms: 20"
        ) { c, v, x throws(ConfigFileError) in
            c.settleMilliseconds = try x.int(v, in: settleRange, "milliseconds (a whole number in 0…60000)")
        },
        DaemonSetting(
            key: "settle-cap-ms", option: nil, summary: "A constant stream of events is still processed at least this often (default 500).",
            comment: ["... or after this many ms at the latest, so a constant stream is still processed."], example: "settle-cap-ms: 500"
        ) { c, v, x throws(ConfigFileError) in
            c.settleCapMilliseconds = try x.int(v, in: 1...600_000, "milliseconds (a whole number in 1…600000)")
        },
        DaemonSetting(
            key: "rules", option: nil, summary: "Extra rule module directories, watched (editing a module reloads it).",
            comment: [
                "Extra rule module directories, loaded after the shipped rules, /etc/reswatch/rules.d and",
                "$XDG_CONFIG_HOME/reswatch/rules.d. They are watched: editing a module reloads it.",
            ], example: "rules: []"
        ) { c, v, x throws(ConfigFileError) in c.ruleDirectories += try x.strings(v, "directories").map(x.absolute) },
        DaemonSetting(
            key: "exclude", option: nil,
            summary:
                "Directory names never watched or scanned, `*.x` for a name ending (replaces the default list; Pods, node_modules, Carthage and *.docset are vendored: said as project.left-out).",
            comment: [
                "Directory names never watched or scanned, '*.x' for a name ending (replaces the default list).",
                "Pods, node_modules, Carthage and *.docset are other projects': said once as project.left-out.",
            ],
            example: "exclude: [.git, DerivedData, build, __MACOSX, Pods, node_modules, Carthage, '*.docset']"
        ) { c, v, x throws(ConfigFileError) in c.excludes = Set(try x.strings(v, "directory names")) },
        DaemonSetting(
            key: "allow-project-exec", option: "allow-project-exec",
            summary:
                "Run exec rules that watched projects' .reswatch/rules (or module files other users own) declare. Off: reported, not run.",
            comment: [
                "Run exec rules that watched projects declare in their own .reswatch/rules (and module files",
                "owned by users other than the daemon's user or root). Off by default: such rules are reported",
                "as module errors and their programs never run. Turn on only for trees you trust.",
            ], example: "allow-project-exec: false"
        ) { c, v, x throws(ConfigFileError) in
            guard let b = YAMLLimits.bool(v) else { throw x.fail("expected true or false") }
            c.allowProjectExec = b
        },
        DaemonSetting(
            key: "max-clients", option: nil, summary: "Socket clients served at once (default 256).",
            comment: ["Socket clients served at once; one more is answered with an error and closed."], example: "max-clients: 256"
        ) { c, v, x throws(ConfigFileError) in c.maxClients = try x.int(v, in: 1...65_536, "a whole number in 1…65536") },
        DaemonSetting(
            key: "client-idle-timeout", option: nil,
            summary: "Seconds after which a silent or unread client is disconnected (default 600).",
            comment: [
                "Seconds after which a client that sends nothing (no request in flight, no subscription) or does",
                "not read its replies is disconnected. Subscribers may stay quiet indefinitely.",
            ], example: "client-idle-timeout: 600"
        ) { c, v, x throws(ConfigFileError) in
            c.clientIdleTimeoutSeconds = try x.int(v, in: 1...86_400, "seconds (a whole number in 1…86400)")
        },
        DaemonSetting(
            key: "idle-exit", option: "idle-exit",
            summary:
                "Exit after this many seconds with no client connected (0, the default: never; reswatch lsp starts its daemon with 600).",
            comment: [
                "Seconds with no client connected after which the daemon exits; 0 (the default) never does.",
                "A daemon reswatch lsp starts on demand exits after 600 (its --daemon-idle-exit).",
            ], example: "idle-exit: 0"
        ) { c, v, x throws(ConfigFileError) in c.idleExitSeconds = try x.int(v, in: 0...604_800, "seconds (a whole number in 0…604800)") },
        DaemonSetting(
            key: "socket-group", option: "socket-group",
            summary: "Members of this group may query, subscribe and sync (socket 0660 in a 0750 folder of that group).",
            comment: [
                "Who may use the socket (docs/security.md, \"Who may do what\"). Members of socket-group may query,",
                "subscribe and sync (the socket becomes 0660 in a 0750 folder of that group); members of",
                "admin-group may also add and remove roots, recheck and shut down. The daemon's user and root",
                "are always admins. Unset: only they can connect.",
            ], example: "# socket-group: reswatch"
        ) { c, v, x throws(ConfigFileError) in c.socketGroup = try x.text(v, "a group name") },
        DaemonSetting(
            key: "admin-group", option: "admin-group", summary: "Members of this group may also add/remove roots, recheck and shut down.",
            comment: [], example: "# admin-group: reswatch-admin"
        ) { c, v, x throws(ConfigFileError) in c.adminGroup = try x.text(v, "a group name") },
        DaemonSetting(
            key: "metrics-file", option: "metrics-file",
            summary: "Write Prometheus metrics here (atomically, when counts change), for node_exporter's textfile collector.",
            comment: [
                "Prometheus metrics in the text format, rewritten atomically when they change (node_exporter's",
                "textfile collector reads *.prom files from its directory): docs/operations.md.",
            ], example: "# metrics-file: /var/lib/prometheus/node-exporter/reswatch.prom"
        ) { c, v, x throws(ConfigFileError) in c.metricsFile = x.absolute(try x.text(v, "a file path")) },
    ]

    package static func named(_ key: String) -> DaemonSetting? { all.first { $0.key == key } }

    /// The help of the command-line option `option` (an unknown one is a programming error).
    package static func help(_ option: String) -> String {
        guard let setting = all.first(where: { $0.option == option }) else { preconditionFailure("no daemon setting --\(option)") }
        return setting.summary
    }

    /// A config file holding every setting, commented (`reswatch daemon --example-config`).
    package static var exampleFile: String {
        var lines = [
            "# reswatch daemon configuration (reswatch daemon --config FILE). Command-line options given",
            "# explicitly override these; every key is optional. Made by `reswatch daemon --example-config`.",
        ]
        for setting in all {
            if !setting.comment.isEmpty { lines.append("") }
            lines += setting.comment.map { "# " + $0 }
            lines.append(setting.example)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
