import Findings
import ProjectModel
import RuleEngine
import SystemCalls

/// Human output: grouped by project, one line per diagnostic, colour on a terminal.
package struct TextReport: Sendable {
    /// Notes shown in a project's header line (the rest are counted).
    static let notesShown = 4
    package let color: Bool
    /// Paths relative to the repository root; nil: relative to each finding's root.
    package let paths: ReportPaths?

    package init(color: Bool, paths: ReportPaths? = nil) {
        self.color = color
        self.paths = paths
    }

    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    package func severityLabel(_ s: Severity) -> String {
        switch s {
        case .error: paint("error", "1;31")
        case .warning: paint("warning", "1;33")
        case .info: paint("info", "1;36")
        }
    }

    /// `path:line:column: severity: message [rule] (ITMS-…)`; for an image in a set, the entry
    /// that uses it follows (`(Contents.json:43)`).
    package func line(_ d: Diagnostic) -> String {
        // Names and messages are escaped (FileName.display): a file name with a newline or an ANSI
        // escape cannot forge a line or recolour a CI log.
        let shown = paths?.location(d) ?? d.path
        let path = FileName.display(shown.isEmpty ? "." : shown)
        let place = d.line.map { ":\($0)" + (d.column.map { ":\($0)" } ?? "") } ?? ""
        var text = "\(path)\(place): \(severityLabel(d.severity)): \(FileName.display(d.message)) "
        text += paint("[\(d.rule)]", "2")
        if let code = d.code { text += " (\(code))" }
        for r in d.relatedLocations where r.line != nil {
            text += paint(" (\(FileName.display(RelativePath.name(r.path))):\(r.line!))", "2")
        }
        return text
    }

    /// "Config/App.xcconfig:3" → "App.xcconfig:3"; "X.xcodeproj/project.pbxproj (target App, Release)" →
    /// "project.pbxproj"; an unknown setting → "default; TARGETED_DEVICE_FAMILY unknown".
    static func shortOrigin(_ origin: String, source: String?) -> String {
        if let unknown = origin.range(of: " unknown (") {
            return "\(source ?? "default"); \(origin[..<unknown.lowerBound]) unknown"
        }
        let file = origin.range(of: ", ").map { String(origin[..<$0.lowerBound]) } ?? origin
        return RelativePath.name(file)
    }

    /// A project's header: its settings (or why it is not judged) and what they were read from.
    static func header(_ c: CheckReport.ContextJSON) -> (settings: String, used: [String]) {
        let devices = c.devices.joined(separator: "+")
        // The precise origin when known ("App.xcconfig:3", "Xcode default"), else the source.
        let source = { (k: String) -> String in
            if let origin = c.origins[k] { return " (\(Self.shortOrigin(origin, source: c.sources[k])))" }
            return c.sources[k].map { " (\($0))" } ?? ""
        }
        // A project that builds no iOS app has no devices or deployment target to show.
        let settings =
            c.noApp != nil
            ? (c.noApp!.contains("builds no iOS app")
                ? "builds no iOS app"
                : c.noApp!.hasPrefix("outside every project")
                    ? "outside every project: not judged" : "not judged as an app (a Swift package's example)")
            : "\(devices)\(source("devices")), iOS \(c.deploymentTarget)\(source("deployment-target")), \(c.distribution)"
        var used: [String] = []
        if let target = c.target {
            used.append("target \(target), configuration \(c.configuration ?? "?")\(c.configurationReason.map { " (\($0))" } ?? "")")
        }
        if let plist = c.infoPlist {
            used.append("Info.plist \(FileName.display(plist))\(c.infoPlistReason.map { " (\($0))" } ?? "")")
        } else if let reason = c.infoPlistReason {
            used.append("Info.plist: \(reason)")
        }
        if let icon = c.appIcon { used.append("app icon set \(FileName.display(icon))\(source("app-icon"))") }
        // A project whose description is partly unread has many notes: the header stays one
        // line per product, the rest is in JSON (`projects[].context.notes`).
        used += c.notes.prefix(Self.notesShown)
        if c.notes.count > Self.notesShown {
            used.append("\(c.notes.count - Self.notesShown) more notes in --format json (projects[].context.notes)")
        }
        return (settings, used)
    }

    package func render(_ report: CheckReport, showFixes: Bool = false) -> String {
        var out: [String] = []
        for e in report.ruleErrors {
            out.append(
                "\(FileName.display(e.file))\(e.line.map { ":\($0)" } ?? ""): \(paint("rule module error", "1;31")): \(FileName.display(e.message))"
            )
        }
        if !report.ruleErrors.isEmpty { out.append("") }
        let byProject = Dictionary(grouping: report.diagnostics) { "\($0.root)\u{0}\($0.project)" }
        var projects = report.projects
        let known = Set(projects.map { "\($0.root)\u{0}\($0.path)" })
        for key in byProject.keys.sorted() where !known.contains(key) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            var context = ProjectContext(directory: parts[1])
            context.sources = [:]
            projects.append(CheckReport.Project(root: parts[0], path: parts[1], context: .init(context), judged: 1))
        }
        var printed = Set<String>()
        for (index, project) in projects.enumerated() {
            let key = "\(project.root)\u{0}\(project.path)"
            // A project with several iOS apps: one block, a header line per app, the findings once.
            guard printed.insert(key).inserted else { continue }
            let diagnostics = byProject[key] ?? []
            let c = project.context
            let title = FileName.display(
                paths?.relative(root: project.root, path: project.path)
                    ?? (project.path.isEmpty ? project.root : project.root + "/" + project.path))
            let (settings, used) = Self.header(c)
            out.append(paint(title, "1") + "  " + paint(settings, "2"))
            if !used.isEmpty { out.append("  " + paint(used.joined(separator: "; "), "2")) }
            for more in projects[(index + 1)...] where "\(more.root)\u{0}\(more.path)" == key {
                let m = more.context
                var line = "also target \(m.target ?? "?") (\(m.devices.joined(separator: "+")), iOS \(m.deploymentTarget))"
                if let plist = m.infoPlist { line += "; Info.plist \(FileName.display(plist))" }
                if let icon = m.appIcon { line += "; app icon set \(FileName.display(icon))" }
                out.append("  " + paint(line, "2"))
            }
            // Never "no problems" for a project where nothing was judged.
            if diagnostics.isEmpty {
                out.append(project.judged > 0 ? "  no problems" : "  nothing checked: none of what reswatch checks is here")
            }
            for d in diagnostics {
                out.append("  " + line(d))
                if showFixes, let fix = d.fix { out.append("      " + paint("fix: \(FileName.display(fix))", "2")) }
            }
            out.append("")
        }
        let s = report.summary
        out.append(
            "\(s.errors) error\(s.errors == 1 ? "" : "s"), \(s.warnings) warning\(s.warnings == 1 ? "" : "s"), \(s.infos) info in \(s.files) file\(s.files == 1 ? "" : "s")"
        )
        return out.joined(separator: "\n")
    }
}
