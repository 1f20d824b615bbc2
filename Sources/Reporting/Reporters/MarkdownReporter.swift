import Findings
import Foundation
import RuleEngine
import SystemCalls

/// `markdown`: for `$GITHUB_STEP_SUMMARY` and merge-request comments (CommonMark, GitHub's
/// flavour): the counts, then per project its context and its findings grouped by rule, each rule
/// linked to its documentation. Text from the tree (names, messages) is escaped, so a file name
/// cannot forge a heading, a link or markup.
package struct MarkdownReporter: Reporter {
    package static let name = "markdown"
    package static let summary = "Markdown for a CI job summary or a merge-request comment: counts, findings by project and rule"
    package init() {}

    /// Backslash-escapes the characters that start markup inside a paragraph (emphasis, code,
    /// links, images, HTML, entities, tables, strikethrough), and folds line breaks: the text stays
    /// one paragraph's plain text.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in FileName.escapingUndecodable(s) {
            if c == "\n" || c == "\r" {
                out += " "
            } else if c.isASCII, let ascii = c.asciiValue, "\\`*_[]<>#!|~&".contains(Character(UnicodeScalar(ascii))) {
                out += "\\" + String(c)
            } else {
                out.append(c)
            }
        }
        return out
    }

    package func render(_ context: ReportContext) -> String {
        let s = context.report.summary
        var out = "## reswatch check: \(s.errors) error(s), \(s.warnings) warning(s), \(s.infos) info in \(s.files) files\n\n"
        if context.suppressed > 0 { out += "\(context.suppressed) finding(s) left out: listed in the baseline.\n\n" }
        for e in context.report.ruleErrors {
            out += "**Rule module error** (results are incomplete): \(Self.escape(e.message))\n\n"
        }
        var projects: [(root: String, path: String)] = []
        for p in context.report.projects where !projects.contains(where: { $0 == (p.root, p.path) }) { projects.append((p.root, p.path)) }
        let diagnostics = context.report.diagnostics
        var placed = Set<Int>()
        // The icon sets, as contact sheets written to --assets DIR.
        let gallery = context.assetsDirectory.map { _ in IconGallery.gather(context.report, thumbnails: Thumbnails(budget: 0)) }
        var sheetNumber = 1
        for project in projects {
            let mine = diagnostics.indices.filter { diagnostics[$0].root == project.root && diagnostics[$0].project == project.path }
            placed.formUnion(mine)
            let shown = context.paths.relative(root: project.root, path: project.path)
            out += "### \(Self.escape(shown.isEmpty ? "." : shown))\n\n"
            for product in context.report.projects where product.root == project.root && product.path == project.path {
                out += "* " + Self.escape(HTMLPage.contextLine(product.context)) + "\n"
            }
            out += "\n"
            if let folder = context.assetsDirectory,
                let sets = gallery?.projects.first(where: { $0.root == project.root && $0.path == project.path })?.sets
            {
                out += sheets(sets, folder: folder, first: &sheetNumber)
            }
            out += byRule(mine.map { diagnostics[$0] }, context: context)
        }
        let rest = diagnostics.indices.filter { !placed.contains($0) }
        if !rest.isEmpty { out += "### Other findings\n\n" + byRule(rest.map { diagnostics[$0] }, context: context) }
        return out
    }

    /// Each set's contact sheet, written to `folder` and shown with its slots named in order.
    func sheets(_ sets: [IconGallery.IconSet], folder: String, first: inout Int) -> String {
        var out = ""
        for set in sets {
            guard let png = ContactSheet.png(set) else { continue }
            let base = set.path.split(separator: "/").last.map(String.init) ?? "set"
            let safe = String(base.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
            let name = "\(first)-\(safe).png"
            first += 1
            do {
                try FileSystem.writeAtomically(folder + "/" + name, png)
            } catch {
                out += "*Contact sheet of \(Self.escape(set.path)) not written: \(Self.escape(error.reason))*\n\n"
                continue
            }
            let missing = set.slots.filter { slot in slot.path.map { !IconGallery.exists(set.root + "/" + $0) } ?? true
            }
            out += "![\(Self.escape(set.path))](\(Self.linkPath(folder + "/" + name)))\n\n"
            out +=
                "\(Self.escape(set.path)): \(set.slots.count) slot(s) in Contents.json order, \(Self.escape(set.slots.map(\.label).joined(separator: ", ")))"
            out +=
                missing.isEmpty
                ? "\n\n" : "; framed in red, without a picture: \(Self.escape(missing.map(\.label).joined(separator: ", ")))\n\n"
        }
        return out
    }

    /// A path as a link destination: spaces, parentheses and angle brackets percent-encoded.
    static func linkPath(_ path: String) -> String {
        var out = ""
        for c in path {
            switch c {
            case " ": out += "%20"
            case "(": out += "%28"
            case ")": out += "%29"
            case "<": out += "%3C"
            case ">": out += "%3E"
            default: out.append(c)
            }
        }
        return out
    }

    func byRule(_ findings: [Diagnostic], context: ReportContext) -> String {
        guard !findings.isEmpty else { return "No findings.\n\n" }
        var order: [String] = []
        var groups: [String: [Diagnostic]] = [:]
        for d in findings {
            if groups[d.rule] == nil { order.append(d.rule) }
            groups[d.rule, default: []].append(d)
        }
        var out = ""
        for rule in order {
            let group = groups[rule]!
            let link = RuleLinks.url(for: rule, base: context.rulesURL)
            out +=
                "#### [\(Self.escape(rule))](\(link.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: ")", with: "%29"))) "
            out += "(\(group.count) \(group[0].severity.rawValue))\n\n"
            for d in group {
                let place = context.paths.location(d) + (d.line.map { ":\($0)" } ?? "")
                out += "* `` \(place.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "\n", with: " ")) ``: "
                out += Self.escape(d.message) + (d.code.map { " (\(Self.escape($0)))" } ?? "") + "\n"
            }
            out += "\n"
        }
        return out
    }
}
