import Foundation
import RuleEngine
import SystemCalls

/// A baseline: the findings a team has accepted for now (`check --write-baseline FILE`), so a
/// later `check --baseline FILE` reports only new ones. Findings match by rule, repository-relative
/// path and fingerprint (rule, path and message, not the line), so edits above a finding and
/// unrelated edits keep it suppressed; each entry suppresses one finding, so a second occurrence
/// of the same problem is new, and a fixed one simply no longer counts.
public struct Baseline: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Hashable {
        public let rule: String
        public let path: String
        public let fingerprint: String
        /// For people reading the file; not used to match.
        public let message: String
    }

    public var version = 1
    public var findings: [Entry]

    public init(_ context: ReportContext) {
        findings = context.fingerprinted.map { d, fingerprint in
            Entry(
                rule: d.rule, path: FileName.escapingUndecodable(context.paths.location(d)), fingerprint: fingerprint,
                message: FileName.escapingUndecodable(d.message))
        }
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String, SystemError)
        case invalid(String, String)

        public var description: String {
            switch self {
            case .unreadable(let path, let error): "cannot read the baseline \(path): \(error.reason)"
            case .invalid(let path, let why): "the baseline \(path) is not a reswatch baseline: \(why)"
            }
        }
    }

    public static func load(_ path: String) throws(LoadError) -> Baseline {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path, limit: 64 << 20) } catch { throw .unreadable(path, error) }
        let baseline: Baseline
        do { baseline = try JSONDecoder().decode(Baseline.self, from: Data(bytes)) } catch {
            throw .invalid(path, "\(error)")
        }
        guard baseline.version == 1 else { throw .invalid(path, "version \(baseline.version); this reswatch reads version 1") }
        return baseline
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// The report without the findings this baseline lists, and how many were left out.
    public func apply(to report: CheckReport, paths: ReportPaths) -> (CheckReport, suppressed: Int) {
        var remaining: [String: Int] = [:]
        for e in findings { remaining["\(e.rule)\u{0}\(e.path)\u{0}\(e.fingerprint)", default: 0] += 1 }
        var keep: [Bool] = []
        for (d, fingerprint) in zip(report.diagnostics, Fingerprint.all(report.diagnostics, paths: paths)) {
            let key = "\(d.rule)\u{0}\(FileName.escapingUndecodable(paths.location(d)))\u{0}\(fingerprint)"
            if let n = remaining[key], n > 0 {
                remaining[key] = n - 1
                keep.append(false)
            } else {
                keep.append(true)
            }
        }
        return (report.keeping(keep), keep.count { !$0 })
    }
}
