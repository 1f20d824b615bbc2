import Foundation
import SystemCalls

/// The dependency versions a project's lockfiles pin: CocoaPods' `Podfile.lock`, SwiftPM's
/// `Package.resolved` (format 1, 2 and 3) and Carthage's `Cartfile.resolved`. Each pin keeps its
/// line, for the finding. Read as text with bounded work: a lockfile is hostile input.
struct LockedDependency: Equatable {
    /// The pod (without its subspec), the package identity, or the Carthage `owner/repo`.
    let name: String
    let version: String
    let line: Int
}

enum Lockfiles {
    /// `  - Name/Subspec (1.2.3)` or `  - Name (1.2.3):` under `PODS:`.
    static func podfileLock(_ text: String) -> [LockedDependency] {
        var out: [LockedDependency] = []
        var inPods = false
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if !line.hasPrefix(" ") { inPods = line.hasPrefix("PODS:") }
            guard inPods, line.hasPrefix("  - ") else { continue }
            let entry = line.dropFirst(4)
            guard let open = entry.firstIndex(of: "("), let close = entry[open...].firstIndex(of: ")") else { continue }
            let name = entry[..<open].trimmingCharacters(in: .whitespaces).split(separator: "/").first.map(String.init) ?? ""
            let version = String(entry[entry.index(after: open)..<close])
            if !name.isEmpty { out.append(LockedDependency(name: name, version: version, line: i + 1)) }
        }
        return out
    }

    /// Each pin's identity (format 2, 3) or package name (format 1) and version, at the line of its
    /// name; only the pins `wanted` names (lowercased) when given, so that a hostile file of many
    /// pins costs no search of its lines for each.
    static func packageResolved(_ bytes: [UInt8], wanted: Set<String>? = nil) -> [LockedDependency] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return [] }
        let pins = (root["pins"] as? [[String: Any]]) ?? ((root["object"] as? [String: Any])?["pins"] as? [[String: Any]]) ?? []
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [LockedDependency] = []
        for pin in pins.prefix(10_000) {
            guard let name = (pin["identity"] as? String) ?? (pin["package"] as? String),
                let version = (pin["state"] as? [String: Any])?["version"] as? String, wanted?.contains(name.lowercased()) ?? true
            else { continue }
            let quoted = "\"\(name)\""
            let line = lines.firstIndex { $0.contains(quoted) }.map { $0 + 1 } ?? 1
            out.append(LockedDependency(name: name.lowercased(), version: version, line: line))
        }
        return out
    }

    /// `github "Owner/Repo" "v1.2.3"` (and `git` lines naming a GitHub URL).
    static func cartfileResolved(_ text: String) -> [LockedDependency] {
        var out: [LockedDependency] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let parts = line.split(separator: "\"").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard parts.count >= 3, parts[0] == "github" || parts[0] == "git" else { continue }
            var repo = parts[1]
            if let range = repo.range(of: "github.com/") { repo = String(repo[range.upperBound...]) }
            if repo.hasSuffix(".git") { repo = String(repo.dropLast(4)) }
            let version = parts[2].hasPrefix("v") ? String(parts[2].dropFirst()) : parts[2]
            out.append(LockedDependency(name: repo.lowercased(), version: version, line: i + 1))
        }
        return out
    }

    /// "5.8.1" < "5.9.0", component by component; nil for a version that is not dotted numbers.
    static func isBelow(_ version: String, _ first: String) -> Bool? {
        func parts(_ v: String) -> [Int]? {
            let p = v.split(separator: ".").map { Int($0) }
            return p.isEmpty || p.contains(nil) || p.count > 4 ? nil : p.compactMap { $0 }
        }
        guard let a = parts(version), let b = parts(first) else { return nil }
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            if x != y { return x < y }
        }
        return false
    }
}
