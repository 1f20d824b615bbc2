/// Where each rule is documented: its section of docs/rules.md. `RESWATCH_RULES_URL` points it
/// elsewhere (a fork, an internal mirror). Every output that links a finding (SARIF, LSP, the
/// text report) uses this, so the link and the generated docs' anchors cannot disagree.
public enum RuleLinks {
    public static let defaultBase = "https://github.com/reswatch/reswatch/blob/main/docs/rules.md"

    public static func url(for id: String, base: String = defaultBase) -> String { base + "#" + anchor(id) }

    /// A rule's heading anchor in docs/rules.md (GitHub drops the dots).
    public static func anchor(_ id: String) -> String { String(id.filter { $0 != "." }) }
}
