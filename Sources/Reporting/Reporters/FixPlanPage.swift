import Findings
import SystemCalls

/// `reswatch fix --format html`: the plan as one self-contained page, each image a repair changes
/// shown before and after (on a checkerboard where transparent), each text edit as its diff, and
/// what is left with the reason. The page is built like the check report's (`HTMLPage`).
package enum FixPlanPage {
    /// One file a repair changes.
    package struct Change: Sendable {
        package let path: String
        /// "edit", "create", "rename to X", "remove".
        package let action: String
        package let before: [UInt8]?
        package let after: [UInt8]?
        /// The unified diff of a text file.
        package let diff: [String]

        package init(path: String, action: String, before: [UInt8]?, after: [UInt8]?, diff: [String]) {
            self.path = path
            self.action = action
            self.before = before
            self.after = after
            self.diff = diff
        }
    }

    package struct Repair: Sendable {
        package let title: String
        package let rule: String
        package let changes: [Change]

        package init(title: String, rule: String, changes: [Change]) {
            self.title = title
            self.rule = rule
            self.changes = changes
        }
    }

    /// One root's plan.
    package struct Plan: Sendable {
        package let root: String
        package let repairs: [Repair]
        /// (place, rule, reason) of each finding left as it is.
        package let left: [(String, String, String)]

        package init(root: String, repairs: [Repair], left: [(String, String, String)]) {
            self.root = root
            self.repairs = repairs
            self.left = left
        }
    }

    static func isPNG(_ bytes: [UInt8]?) -> Bool { bytes?.starts(with: [0x89, 0x50, 0x4E, 0x47]) ?? false }

    package static func render(_ plans: [Plan], applied: Bool) -> String {
        let thumbnails = Thumbnails(budget: HTMLReporter.thumbnailBudget)
        let e = HTMLPage.escape
        var body = ""
        for plan in plans {
            body += "<section class=\"project\"><h2>\(e(plan.root))</h2>\n"
            body +=
                "<p class=\"context\">\(plan.repairs.count) repair(s)\(applied ? ", applied" : " (a plan: nothing is changed; --apply carries it out)")</p>\n"
            for (n, repair) in plan.repairs.enumerated() {
                body += "<div class=\"iconset\"><h3>\(n + 1). \(e(repair.title)) <small>\(e(repair.rule))</small></h3>\n"
                for change in repair.changes {
                    body += "<p><code>\(e(change.path))</code> \(e(change.action))</p>\n"
                    if isPNG(change.before) || isPNG(change.after) {
                        body += "<div class=\"grid\">"
                        for (label, bytes) in [("before", change.before), ("after", change.after)] {
                            body += picture(label, bytes, thumbnails)
                        }
                        body += "</div>\n"
                    } else if !change.diff.isEmpty {
                        body += "<pre class=\"diff\">\(e(change.diff.joined(separator: "\n")))</pre>\n"
                    }
                }
                body += "</div>\n"
            }
            if !plan.left.isEmpty {
                body += "<h3>Left as they are (\(plan.left.count))</h3><ul class=\"findings\">"
                for (place, rule, reason) in plan.left {
                    body += "<li><code>\(e(place))</code> <span class=\"itms\">\(e(rule))</span>: \(e(reason))</li>"
                }
                body += "</ul>\n"
            }
            body += "</section>\n"
        }
        var page = HTMLAssets.head.replacingOccurrences(of: "<title>reswatch check</title>", with: "<title>reswatch fix</title>")
        page += ".diff{background:var(--card);padding:8px;overflow:auto}\n"
        for (i, image) in thumbnails.images.enumerated() { page += ".i\(i){background-image:url(data:image/png;base64,\(image))}\n" }
        page += "</style></head>\n<body>\n<header><h1>reswatch fix</h1></header>\n<main>\n" + body + "</main>\n"
        return page + "<script>" + HTMLAssets.pictureCheck + "</script>\n</body></html>\n"
    }

    static func picture(_ label: String, _ bytes: [UInt8]?, _ thumbnails: Thumbnails) -> String {
        var out = "<figure class=\"slot store\" data-state=\"\(label)\">"
        switch bytes.map({ thumbnails.picture(of: $0, side: 160) }) {
        case .image(let id, let width, let height, let transparent, _)?:
            out += "<span class=\"thumb\(transparent ? " transparent" : "")\" role=\"img\" aria-label=\"\(label) \(width)×\(height)\">"
            out +=
                "<span class=\"pic i\(id)\"></span></span><figcaption>\(label): \(width)×\(height)\(transparent ? ", transparent pixels" : ", opaque")</figcaption>"
        case .notDrawn(let why)?:
            out += "<span class=\"hole\">\(HTMLPage.escape(why))</span><figcaption>\(label)</figcaption>"
        case nil:
            out += "<span class=\"hole empty\">none</span><figcaption>\(label): no file</figcaption>"
        }
        return out + "</figure>"
    }
}
