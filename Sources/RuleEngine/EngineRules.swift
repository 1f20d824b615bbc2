/// Rule ids the engine itself reports (not from a module).
public enum EngineRules {
    public static let unreadable = RuleInfo(
        id: "io.unreadable", severity: .warning,
        summary: "A file or directory that should be checked cannot be read.",
        rationale: "reswatch cannot validate what it cannot read; a permission problem often hides a real defect.",
        fix: "Fix the permissions (chmod u+r / a+rx on directories) or exclude the path with ignore: in .reswatch.yaml.")
}
