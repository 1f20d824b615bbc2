import Foundation
import ProjectModel
import ReswatchProtocol
import RuleEngine
import RuleKit
import SystemCalls
import Yams

/// Everything the daemon is started with (command line, `--config FILE`, environment).
package struct DaemonConfiguration: Sendable {
    package var socketPath: String
    package var logFile: String?
    /// Quiet time that ends a burst of events.
    package var settleMilliseconds = 20
    /// A constant stream of events is still processed at least this often.
    package var settleCapMilliseconds = 500
    package var roots: [String] = []
    /// Rule module directories of the config file's `rules:` (layered over the standard ones).
    package var ruleDirectories: [String] = []
    /// Every source of rule modules, in load order (built-in, /etc, XDG, `rules:`, `--rules`).
    package var ruleSources = RuleSources(builtIn: [])
    package var excludes: Set<String> = ResourceTree.defaultExcludes
    /// Run exec rules from watched projects' .reswatch/rules and from module files other users own.
    package var allowProjectExec = false
    /// Image facts kept in memory, one bound for all roots together (parsed plists and
    /// Contents.json: an eighth of it). Past it, files are read again when a rule needs them;
    /// memory stays flat as trees and roots grow.
    package var factsCacheEntries = 4096
    /// Empty the file caches when scans fall idle (`EngineCaches.shedScanLeftovers`). Off only
    /// in tests that look at what a scan left in them.
    package var shedCachesAfterScans = true
    /// Log every finding added and removed (with rule, path and root as fields): set under
    /// journald, where they are queryable (`journalctl RESWATCH_RULE=…`).
    package var logFindings = false
    /// Subscriber queue bound (bytes waiting to be written) before the queue is dropped for a resync.
    package var subscriberQueueBytes = 1 << 20
    /// Connections served at once; past it a new client gets an error reply and is closed.
    package var maxClients = 256
    /// A connection that sends no request for this long while it has nothing in flight and no
    /// subscription, or whose replies stay unread this long, is closed.
    package var clientIdleTimeoutSeconds = 600
    /// Seconds with no client connected after which the daemon exits; 0: never (systemd's and a
    /// daemon started by hand). `reswatch lsp` starts its daemon with 600.
    package var idleExitSeconds = 0
    /// How the daemon was started, said by `status`: "on demand by reswatch lsp" (`--started-by`),
    /// "systemd", "by hand".
    package var startedBy = "by hand"
    /// Where its own log (stderr) goes, said by `status`: a file, the journal, a terminal.
    package var log: String?

    /// Members of this group may use the socket as readers: it is then 0660 in a 0750 folder of
    /// that group (docs/security.md, "Who may do what").
    package var socketGroup: String?
    /// Members of this group are admins too.
    package var adminGroup: String?
    /// Prometheus text exposition, rewritten atomically when counts change (node_exporter's
    /// textfile collector).
    package var metricsFile: String?

    /// The rule kinds modules may use (the command line hands in the built-in ones): the daemon
    /// itself knows no kind.
    package var kinds: KindRegistry

    package init(socketPath: String, kinds: KindRegistry) {
        self.socketPath = socketPath
        self.kinds = kinds
    }

    /// Keys of a daemon config file (`reswatch daemon --config FILE`).
    package static var fileKeys: [String] { DaemonSettings.all.map(\.key) }

    /// Applies a YAML config file; command-line values given explicitly are applied after it by the caller.
    package mutating func apply(configFile path: String) throws(ConfigFileError) {
        let text: String
        do { text = String(decoding: try FileSystem.readFile(path, limit: 1 << 20), as: UTF8.self) } catch {
            throw ConfigFileError(file: path, line: nil, message: "cannot read: \(error.reason)")
        }
        let root: Node?
        switch YAMLLimits.compose(text) {
        case .success(let r): root = r
        case .failure(let p): throw ConfigFileError(file: path, line: p.line, message: "YAML syntax error: \(p.message)")
        }
        guard let map = root?.mapping else {
            if root == nil { return }
            throw ConfigFileError(file: path, line: root?.line, message: "expected a mapping")
        }
        for (k, v) in map {
            let key = k.string ?? ""
            guard let setting = DaemonSettings.named(key) else {
                throw ConfigFileError(
                    file: path, line: k.line, message: "unknown key '\(key)' (known: \(Self.fileKeys.sorted().joined(separator: ", ")))")
            }
            try setting.read(&self, v, ConfigFileContext(file: path, key: key, line: v.line ?? k.line))
        }
    }
}

package struct ConfigFileError: Error, Sendable, CustomStringConvertible {
    package let file: String
    package let line: Int?
    package let message: String
    package var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
