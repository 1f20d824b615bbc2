import Findings
import RuleEngine
import SystemCalls

/// Paths in a report are relative to the repository root (what CI systems and code review show),
/// not to the argument of `check`: `check ios` reports `ios/Runner/…`.
public struct ReportPaths: Sendable {
    /// Absolute base directory.
    public let base: String

    public init(base: String) { self.base = base.count > 1 && base.hasSuffix("/") ? String(base.dropLast()) : base }

    /// The repository root for a checked path: the nearest ancestor holding `.git` (a directory,
    /// or a file for worktrees and submodules), else `fallback` (the current directory).
    public static func repositoryRoot(containing path: String, fallback: String) -> String {
        var dir = path
        while true {
            if (try? FileSystem.status(dir == "/" ? "/.git" : dir + "/.git")) != nil { return dir }
            guard dir != "/", let slash = dir.utf8.lastIndex(of: UInt8(ascii: "/")) else { return fallback }
            dir = slash == dir.utf8.startIndex ? "/" : String(dir[..<slash])
        }
    }

    /// A root-relative path as the report shows it: relative to the base when inside it, else absolute.
    public func relative(root: String, path: String) -> String {
        let absolute = path.isEmpty ? root : (root == "/" ? "/" + path : root + "/" + path)
        if absolute == base { return "." }
        let prefix = base == "/" ? "/" : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Where a finding is shown.
    public func location(_ d: Diagnostic) -> String { relative(root: d.root, path: d.path) }

    public func related(_ d: Diagnostic) -> [String] { d.related.map { relative(root: d.root, path: $0) } }
}

/// A finding's identity across runs: rule, path and message, not its line (a line shifts when
/// something above it is edited). Repeated identical findings are told apart by their order.
public enum Fingerprint {
    public static func of(rule: String, path: String, message: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits: stable across runs and builds
        for byte in "\(rule)\u{0}\(path)\u{0}\(withoutLineNumbers(message))".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// One fingerprint per finding, in order; the second of two identical findings gets "…:2".
    public static func all(_ diagnostics: [Diagnostic], paths: ReportPaths) -> [String] {
        var seen: [String: Int] = [:]
        return diagnostics.map { d in
            let base = of(rule: d.rule, path: paths.location(d), message: d.message)
            seen[base, default: 0] += 1
            let n = seen[base]!
            return n == 1 ? base : "\(base):\(n)"
        }
    }

    /// "… (line 12) …" → "… (line #) …": a message may quote the line it is about.
    static func withoutLineNumbers(_ message: String) -> String {
        var out = ""
        var rest = Substring(message)
        while let r = rest.range(of: "line ") {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                out += "#"
                rest = rest.dropFirst(digits.count)
            }
        }
        return out + rest
    }
}
