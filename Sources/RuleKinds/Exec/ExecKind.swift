import Dispatch
import Findings
import Foundation
import ImageFacts
import RuleKit
import SystemCalls

/// `exec`: a rule written in any language. reswatch runs the program (argv, no shell) with a
/// timeout, sends the subject as JSON on stdin and reads diagnostics as JSON from stdout.
package struct ExecKind: RuleKind {
    package static let name = "exec"
    package static let summary = "Runs an external program as a rule: subject JSON on stdin, diagnostics JSON on stdout."
    package static let subjects: Set<SubjectKind> = Set(SubjectKind.allCases)

    package static let execFailed = RuleInfo(
        id: "rules.exec-failed", severity: .error,
        summary: "An exec rule crashed, timed out, or printed something that is not the expected JSON.",
        rationale: "A rule that cannot run checks nothing; reswatch reports it instead of hiding it.",
        fix: "Run the program by hand with the JSON on stdin (see docs/rules.md, 'exec'), fix it, or raise timeout-ms.")
    package static let rules = [execFailed]
    package static let parameters = [
        "argv": "program and arguments (no shell); a relative program path is resolved against the module's directory",
        "timeout-ms": "kill the program after this many milliseconds (default 5000)",
        "subjects": "which subjects to run on: image, asset-set, info-plist, project (default image)",
        "rules": "list of {id, severity, summary, fix, code} the program may report",
    ]

    let argv: [String]
    let timeoutMilliseconds: Int
    let kinds: Set<SubjectKind>
    let declared: [RuleInfo]

    package var reportedRules: [RuleInfo] { declared + [Self.execFailed] }
    package var subjectKinds: Set<SubjectKind> { kinds }

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        guard var argv = try p.strings("argv"), !argv.isEmpty else { throw p.error("exec: argv is required (a list: [program, args…])") }
        if !argv[0].hasPrefix("/") && argv[0].contains("/") {
            argv[0] = RelativePath.parent(p.file) + "/" + argv[0]
        }
        self.argv = argv
        timeoutMilliseconds = try p.int("timeout-ms", in: 1...600_000) ?? 5000
        var kinds = Set<SubjectKind>()
        for s in try p.strings("subjects") ?? ["image"] {
            guard let k = SubjectKind(rawValue: s) else {
                throw p.error("subjects: unknown '\(s)' (known: \(SubjectKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            kinds.insert(k)
        }
        self.kinds = kinds
        var declared: [RuleInfo] = []
        for r in try p.list("rules") ?? [] {
            try r.expectOnly(["id", "severity", "summary", "fix", "code"])
            let id = try r.requiredString("id")
            guard let sev = Severity(rawValue: try r.string("severity") ?? "warning") else {
                throw r.error("severity: error, warning or info")
            }
            declared.append(
                RuleInfo(
                    id: id, severity: sev, code: try r.string("code"), summary: try r.string("summary") ?? "",
                    rationale: "Team rule run by \(argv[0]).", fix: try r.string("fix") ?? ""))
        }
        guard !declared.isEmpty else { throw p.error("exec: declare the ids the program reports under rules:") }
        self.declared = declared
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        if subject.kind == .image || subject.kind == .infoPlist { _ = context.read(subject.path) }
        if subject.kind == .assetSet { _ = context.list(subject.path) }
        let input = Self.input(subject, context)
        let outcome = ProcessRunner.run(argv: argv, input: input, timeoutMilliseconds: timeoutMilliseconds)
        let name = "exec rule \(argv[0]) (\(context.ruleSource))"
        switch outcome {
        case .failure(let failure):
            context.report(Self.execFailed, path: subject.path, message: "\(name) \(failure)")
        case .success(let output):
            switch ExecOutput.parse(output) {
            case .failure(let why):
                context.report(Self.execFailed, path: subject.path, message: "\(name) printed invalid output: \(why)")
            case .success(let items):
                for item in items {
                    guard let info = declared.first(where: { $0.id == item.rule }) else {
                        context.report(Self.execFailed, path: subject.path, message: "\(name) reported undeclared rule id '\(item.rule)'")
                        continue
                    }
                    context.report(
                        info, severity: item.severity, path: item.path ?? subject.path, line: item.line, message: item.message,
                        fix: item.fix)
                }
            }
        }
    }

    static func input(_ subject: Subject, _ context: EvaluationContext) -> [UInt8] {
        let project = context.project
        let object: [String: Any] = [
            "version": 1,
            "root": context.root,
            "subject": ["kind": subject.kind.rawValue, "path": subject.path, "absolute_path": context.absolute(subject.path)],
            "project": [
                "directory": project.directory, "devices": project.devices.map(\.rawValue).sorted(),
                "deployment_target": project.deploymentTarget.description, "distribution": project.distribution.rawValue,
            ],
        ]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a program that reports a finding", files: ["App/Assets.xcassets/A.imageset/a.png": .png(PNGSpec(width: 4, height: 4))],
            triggers: ["team.example"],
            module:
                "rules:\n  - kind: exec\n    argv: [/bin/echo, '{\"diagnostics\": [{\"rule\": \"team.example\", \"message\": \"seen\"}]}']\n    rules: [{id: team.example, severity: warning}]\n"
        ),
        RuleExample(
            "a program that prints garbage", files: ["App/Assets.xcassets/A.imageset/a.png": .png(PNGSpec(width: 4, height: 4))],
            triggers: ["rules.exec-failed"],
            module: "rules:\n  - kind: exec\n    argv: [/bin/echo, 'not json']\n    rules: [{id: team.example, severity: warning}]\n"),
        RuleExample(
            "a program that finds nothing", files: ["App/Assets.xcassets/A.imageset/a.png": .png(PNGSpec(width: 4, height: 4))],
            passes: ["team.example", "rules.exec-failed"],
            module:
                "rules:\n  - kind: exec\n    argv: [/bin/echo, '{\"diagnostics\": []}']\n    rules: [{id: team.example, severity: warning}]\n"
        ),
    ]
}

/// One diagnostic from an exec rule's stdout.
struct ExecOutput {
    let rule: String
    let message: String
    let severity: Severity?
    let path: String?
    let line: Int?
    let fix: String?

    /// Accepts `{"diagnostics": [...]}` or a bare array.
    static func parse(_ bytes: [UInt8]) -> Result<[ExecOutput], ExecFailure> {
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.isEmpty { return .failure(ExecFailure("empty output (expected {\"diagnostics\": [...]})")) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed)) else {
            let preview = String(decoding: trimmed.prefix(60), as: UTF8.self)
            return .failure(ExecFailure("not JSON: \"\(preview)\""))
        }
        let list: [Any]
        if let a = object as? [Any] {
            list = a
        } else if let d = object as? [String: Any], let a = d["diagnostics"] as? [Any] {
            list = a
        } else {
            return .failure(ExecFailure("expected {\"diagnostics\": [...]}"))
        }
        var out: [ExecOutput] = []
        for (i, item) in list.enumerated() {
            guard let d = item as? [String: Any], let rule = d["rule"] as? String, let message = d["message"] as? String else {
                return .failure(ExecFailure("diagnostics[\(i)] needs string fields rule and message"))
            }
            var severity: Severity?
            if let s = d["severity"] as? String {
                guard let v = Severity(rawValue: s) else {
                    return .failure(ExecFailure("diagnostics[\(i)].severity '\(s)' is not error, warning or info"))
                }
                severity = v
            }
            out.append(
                ExecOutput(
                    rule: rule, message: message, severity: severity, path: d["path"] as? String,
                    line: d["line"] as? Int, fix: d["fix"] as? String))
        }
        return .success(out)
    }
}
