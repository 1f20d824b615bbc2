import Findings
import ProjectModel
import RuleEngine
import RuleKit

/// `reswatch rules explain ID`: what a rule checks, why (its Apple source), its severity, ITMS code
/// and App Store Connect's wording, how to turn it off or re-grade it, and one triggering and one
/// passing example taken from the rule kind's own examples (the ones its tests run).
package struct RuleExplanation: Sendable {
    package let info: RuleInfo
    /// The kind that reports it, nil for the engine's own ids (`io.unreadable`, `config.invalid` …).
    package let kindName: String?
    /// Where the rule is switched on (`rules/icon.yaml:12`), nil for the engine's ids.
    package let source: String?
    package let triggering: RuleExample?
    package let passing: RuleExample?
    package let isEngineRule: Bool

    package init(id: String, rules: RuleSet, kinds: [any RuleKind.Type]) throws(UnknownRule) {
        let loaded = rules.rules.first { $0.reported.contains { $0.id == id } }
        if let loaded, let info = loaded.reported.first(where: { $0.id == id }) {
            self.info = info
            kindName = loaded.kindName
            source = loaded.source
            isEngineRule = false
        } else if let info = EngineRules.all.first(where: { $0.id == id }) {
            self.info = info
            kindName = nil
            source = nil
            isEngineRule = true
        } else {
            let known = Set(rules.allRuleInfos.map(\.id) + EngineRules.all.map(\.id))
            throw UnknownRule(id: id, suggestions: UnknownRule.nearest(to: id, in: known))
        }
        let kind = kinds.first { k in k.rules.contains { $0.id == id } }
        let examples = kind?.examples.filter { $0.module == nil } ?? []
        triggering = examples.first { $0.triggers.contains(id) }
        passing = examples.first { $0.passes.contains(id) && !$0.triggers.contains(id) }
    }

    package func text(rulesURL: String = RuleLinks.defaultBase) -> String {
        var out = ["\(info.id) — \(info.severity.rawValue)" + (info.code.map { " · \($0)" } ?? "")]
        out.append("")
        out.append("What it checks: \(info.summary)")
        out.append("Why: \(info.rationale)")
        if let code = info.code, let wording = ITMSWording.wording(for: code) {
            out.append("App Store Connect says (\(code)): \"\(wording)\"")
        }
        out.append("Fix: \(info.fix)")
        if let kindName, let source {
            out.append("Reported by: kind \(kindName), switched on at \(source)")
        } else {
            out.append("Reported by: the engine")
        }
        out.append("")
        if isEngineRule && info.id != EngineRules.unreadable.id {
            out.append("About the project's own configuration: .reswatch.yaml cannot disable or re-grade it.")
        } else {
            out.append("Turn it off or re-grade it in the project's .reswatch.yaml:")
            out.append("  rules:")
            out.append("    disable: [\(info.id)]")
            out.append("    severity: {\(info.id): warning}   # error, warning, info or off")
        }
        for (label, example) in [("Reported for", triggering), ("Not reported for", passing)] {
            guard let example else { continue }
            out.append("")
            out.append("\(label): \(example.name)")
            for (path, file) in example.files.sorted(by: { $0.key < $1.key }) { out += Self.describe(path, file) }
        }
        out.append("")
        out.append("Docs: \(RuleLinks.url(for: info.id, base: rulesURL))")
        return out.joined(separator: "\n")
    }

    /// An example file as a person reads it: text (at most 14 lines), or what the bytes are.
    static func describe(_ path: String, _ file: ExampleFile) -> [String] {
        switch file {
        case .directory: return ["  \(path)/"]
        case .unreadable: return ["  \(path)  (a file that cannot be read)"]
        case .bytes(let bytes):
            let what = bytes.starts(with: Array("bplist".utf8)) ? "a binary plist" : "binary data"
            return ["  \(path)  (\(bytes.count) bytes of \(what))"]
        case .png(let spec):
            var traits = ["\(spec.width)x\(spec.height)", spec.color.rawValue]
            if spec.bitDepth != 8 { traits.append("\(spec.bitDepth)-bit") }
            if spec.interlaced { traits.append("interlaced") }
            if spec.transparentPixels { traits.append("with a transparent pixel") }
            if spec.trns { traits.append("tRNS") }
            if spec.cgbi { traits.append("CgBI") }
            if spec.badCRC { traits.append("bad CRC") }
            if let cut = spec.truncateTo { traits.append("cut at \(cut) bytes") }
            return ["  \(path)  (PNG \(traits.joined(separator: ", ")))"]
        case .text(let text):
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let trimmed = lines.last == "" ? Array(lines.dropLast()) : lines
            if trimmed.isEmpty { return ["  \(path)  (empty)"] }
            var out = ["  \(path):"]
            out += trimmed.prefix(14).map { "    " + $0 }
            if trimmed.count > 14 { out.append("    … (\(trimmed.count - 14) more lines)") }
            return out
        }
    }
}

/// An id no rule in force reports.
package struct UnknownRule: Error, Sendable, CustomStringConvertible {
    package let id: String
    package let suggestions: [String]

    package var description: String {
        "no rule has the id '\(id)'"
            + (suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?")
            + " (reswatch rules list shows every id)"
    }

    /// The closest ids by edit distance (a typo), else those sharing the name's last part.
    static func nearest(to id: String, in known: Set<String>) -> [String] {
        let scored = known.map { ($0, EditDistance.distance(id.lowercased(), $0.lowercased())) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        let close = known.filter { EditDistance.isClose(id, $0) }
        if !close.isEmpty { return scored.map(\.0).filter(close.contains).prefix(3).map { $0 } }
        // No typo close enough: the nearest one, if it is nearer than a rewrite.
        if let best = scored.first, best.1 <= max(2, id.count / 2) { return [best.0] }
        return []
    }
}
