import Findings
import Foundation
import RuleEngine
import SystemCalls

/// `html`: one self-contained page (no network, no other file) that shows each project's icon
/// sets as grids of their slots with the pictures in them, on a checkerboard where they are
/// transparent, every finding beside what it is about, and the rest in a list. Filters by
/// severity and rule work with a few lines of script; without script the page shows everything.
package struct HTMLReporter: Reporter {
    package static let name = "html"
    package static let summary =
        "one self-contained HTML page: the icon sets as grids of their pictures, each finding beside what it is about"
    /// The thumbnails' share of the page, in bytes of base64: past it, thumbnails are left out and
    /// the page says how many (a project of 1,000 icons stays within a few MB).
    package static let thumbnailBudget = 6 << 20
    package init() {}

    package func render(_ context: ReportContext) -> String {
        let thumbnails = Thumbnails(budget: Self.thumbnailBudget)
        let gallery = IconGallery.gather(context.report, thumbnails: thumbnails)
        var page = HTMLPage(context: context)
        var placed = Set<Int>()
        let diagnostics = context.report.diagnostics
        for project in gallery.projects {
            page.section(project, diagnostics: diagnostics, placed: &placed)
        }
        // Findings outside every project the report lists (a path with no project).
        let rest = diagnostics.indices.filter { !placed.contains($0) }
        if !rest.isEmpty { page.list("Other findings", rest.map { diagnostics[$0] }) }
        return page.document(images: thumbnails.images, leftOut: thumbnails.leftOut)
    }
}

/// The page being written.
struct HTMLPage {
    let context: ReportContext
    var body = ""

    /// Text as HTML: the XML formats' escaping (`&`, `<`, `>`, both quotes, control characters,
    /// bytes that are not UTF-8 as `\\xHH`) is valid in HTML too.
    static func escape(_ s: String) -> String { XML.escape(s) }

    /// One project: its products' context lines, its icon sets with their findings, then its
    /// other findings.
    mutating func section(_ project: IconGallery.Project, diagnostics: [Diagnostic], placed: inout Set<Int>) {
        let mine = diagnostics.indices.filter { diagnostics[$0].root == project.root && diagnostics[$0].project == project.path }
        let products = context.report.projects.filter { $0.root == project.root && $0.path == project.path }
        let title = project.path.isEmpty ? (project.root as NSString).lastPathComponent : project.path
        body += "<section class=\"project\"><h2>\(Self.escape(title))</h2>\n"
        for product in products { body += "<p class=\"context\">\(Self.escape(Self.contextLine(product.context)))</p>\n" }
        for set in project.sets {
            let about = mine.filter { i in
                let d = diagnostics[i]
                guard !placed.contains(i) else { return false }  // each finding is shown once
                return RelativePath.isWithin(d.path, set.path) || d.related.contains { RelativePath.isWithin($0, set.path) }
            }
            placed.formUnion(about)
            iconSet(set, findings: about.map { diagnostics[$0] })
        }
        let others = mine.filter { !placed.contains($0) }
        placed.formUnion(others)
        if !others.isEmpty { list("Findings about no picture", others.map { diagnostics[$0] }) }
        body += "</section>\n"
    }

    static func contextLine(_ c: CheckReport.ContextJSON) -> String {
        if let noApp = c.noApp { return noApp }
        var parts = [c.target.map { "target \($0)" } ?? "no Xcode target read"]
        if let configuration = c.configuration { parts.append("configuration \(configuration)") }
        parts.append("\(c.devices.joined(separator: "+")), iOS \(c.deploymentTarget)")
        if let plist = c.infoPlist { parts.append("Info.plist \(plist)") }
        if let icon = c.appIcon { parts.append("app icon set \(icon)") }
        return parts.joined(separator: "; ")
    }

    /// A set as a grid of its slots; the findings about one slot under it, the others above.
    mutating func iconSet(_ set: IconGallery.IconSet, findings: [Diagnostic]) {
        body += "<div class=\"iconset\"><h3>\(Self.escape(set.path)) <small>\(Self.escape(set.kind))</small></h3>\n"
        if let note = set.note { body += "<p class=\"note\">\(Self.escape(note))</p>\n" }
        // Each finding beside the first slot whose file it is about, or above the grid.
        let about = { (d: Diagnostic, path: String?) in path.map { d.path == $0 || d.related.contains($0) } ?? false }
        var bySlot = [[Diagnostic]](repeating: [], count: set.slots.count)
        var general: [Diagnostic] = []
        for d in findings {
            if let i = set.slots.firstIndex(where: { about(d, $0.path) }) { bySlot[i].append(d) } else { general.append(d) }
        }
        if !general.isEmpty { body += findingList(general) }
        if !set.slots.isEmpty {
            body += "<div class=\"grid\">\n"
            for (i, slot) in set.slots.enumerated() { self.slot(slot, findings: bySlot[i]) }
            body += "</div>\n"
        }
        body += "</div>\n"
    }

    mutating func slot(_ slot: IconGallery.Slot, findings: [Diagnostic]) {
        let worst = findings.map(\.severity).max()
        let state = worst.map { " \($0.rawValue)" } ?? ""
        body += "<figure class=\"slot\(slot.isStore ? " store" : "")\(state)\" data-slot=\"\(Self.escape(slot.label))\">"
        switch slot.picture {
        case .image(let id, let width, let height, let transparent, let mask)?:
            let alt = "\(slot.filename ?? "") \(width)×\(height)\(transparent ? ", transparent pixels" : "")"
            body += "<span class=\"thumb\(transparent ? " transparent" : "")\" role=\"img\" aria-label=\"\(Self.escape(alt))\">"
            body += "<span class=\"pic i\(id)\"></span>"
            if let mask { body += "<span class=\"mask i\(mask)\" title=\"the pixels that are not opaque\"></span>" }
            body +=
                "</span><figcaption>\(Self.escape(slot.label))<br><code>\(Self.escape(slot.filename ?? ""))</code> \(width)×\(height)</figcaption>"
        case .notDrawn(let why)?:
            body +=
                "<span class=\"hole\">\(Self.escape(why))</span><figcaption>\(Self.escape(slot.label))<br><code>\(Self.escape(slot.filename ?? ""))</code></figcaption>"
        case nil:
            body += "<span class=\"hole empty\">empty</span><figcaption>\(Self.escape(slot.label))</figcaption>"
        }
        if !findings.isEmpty { body += findingList(findings, showPlace: false) }
        body += "</figure>\n"
    }

    mutating func list(_ title: String, _ findings: [Diagnostic]) {
        body += "<h3>\(Self.escape(title))</h3>\n" + findingList(findings)
    }

    /// `showPlace`: the file and line (a slot's findings are about the file the slot shows).
    func findingList(_ findings: [Diagnostic], showPlace: Bool = true) -> String {
        var out = "<ul class=\"findings\">"
        for d in findings {
            let place = context.paths.location(d) + (d.line.map { ":\($0)" } ?? "")
            let link = RuleLinks.url(for: d.rule, base: context.rulesURL)
            out += "<li class=\"finding\" data-severity=\"\(d.severity.rawValue)\" data-rule=\"\(Self.escape(d.rule))\">"
            out += "<span class=\"sev \(d.severity.rawValue)\">\(d.severity.rawValue)</span> "
            out += "<a href=\"\(Self.escape(link))\">\(Self.escape(d.rule))</a>"
            if let code = d.code { out += " <span class=\"itms\">\(Self.escape(code))</span>" }
            if showPlace { out += " <code class=\"place\">\(Self.escape(place))</code>" }
            out += "<br>\(Self.escape(d.message))"
            if let fix = d.fix ?? context.rules[d.rule]?.fix { out += "<br><span class=\"fix\">Fix: \(Self.escape(fix))</span>" }
            out += "</li>"
        }
        return out + "</ul>\n"
    }

    /// The whole page.
    func document(images: [String], leftOut: Int) -> String {
        let s = context.report.summary
        let rules = Set(context.report.diagnostics.map(\.rule)).sorted()
        var head = HTMLAssets.head
        for (i, image) in images.enumerated() { head += ".i\(i){background-image:url(data:image/png;base64,\(image))}\n" }
        var out = head + "</style></head>\n"
        out += "<body data-errors=\"\(s.errors)\" data-warnings=\"\(s.warnings)\" data-infos=\"\(s.infos)\" data-files=\"\(s.files)\">\n"
        out +=
            "<header><h1>reswatch check</h1><p class=\"counts\">\(s.errors) error(s), \(s.warnings) warning(s), \(s.infos) info in \(s.files) files</p>\n"
        if leftOut > 0 {
            out +=
                "<p class=\"note\">\(leftOut) thumbnail(s) left out: the page reached its size limit of \(HTMLReporter.thumbnailBudget >> 20) MB of pictures</p>\n"
        }
        out += "<form id=\"filters\" hidden>"
        for severity in ["error", "warning", "info"] {
            out += "<label><input type=\"checkbox\" value=\"\(severity)\" checked> \(severity)</label> "
        }
        out += "<select id=\"rule\"><option value=\"\">every rule</option>"
        for rule in rules { out += "<option>\(Self.escape(rule))</option>" }
        out += "</select></form></header>\n<main>\n" + body + "</main>\n<script>" + HTMLAssets.script + "</script>\n</body></html>\n"
        return out
    }
}
