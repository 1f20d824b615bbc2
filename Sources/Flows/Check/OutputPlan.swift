import Reporting

/// `--format F [--output FILE]`, repeatable: each `--output` writes the nearest `--format` before
/// it; a format without one goes to standard output (at most one may).
package struct OutputPlan: Equatable, Sendable {
    package struct Output: Equatable, Sendable {
        package let format: String
        package let file: String?

        package init(format: String, file: String?) {
            self.format = format
            self.file = file
        }
    }

    package let outputs: [Output]

    package init(outputs: [Output]) { self.outputs = outputs }

    /// Pairs formats and files in the order they were given (`arguments` is the command line after
    /// the subcommand name; ArgumentParser keeps each option's values but not their order).
    package static func pair(arguments: [String], formats: [String], files: [String]) throws(UsageProblem) -> OutputPlan {
        var outputs: [(format: String, file: String?)] = []
        var orderedFormats: [String] = []
        var orderedFiles: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { break }
            func value(_ option: String) -> String? {
                if a == option, i + 1 < arguments.count {
                    i += 1
                    return arguments[i]
                }
                return a.hasPrefix(option + "=") ? String(a.dropFirst(option.count + 1)) : nil
            }
            if let f = value("--format") {
                outputs.append((f, nil))
                orderedFormats.append(f)
            } else if let file = value("--output") {
                orderedFiles.append(file)
                guard let last = outputs.indices.last else {
                    throw UsageProblem("--output \(file) must follow the --format it writes (e.g. --format sarif --output \(file))")
                }
                guard outputs[last].file == nil else {
                    throw UsageProblem("--output \(file): --format \(outputs[last].format) already writes to \(outputs[last].file!)")
                }
                outputs[last].file = file
            }
            i += 1
        }
        // Parsed in-process (not from this command line): formats and files in the order parsed.
        if orderedFormats != formats || orderedFiles != files {
            guard files.count <= formats.count else { throw UsageProblem("each --output needs its own --format before it") }
            outputs = formats.enumerated().map { ($1, $0 < files.count ? files[$0] : nil) }
        }
        if outputs.isEmpty { outputs = [("text", nil)] }
        let toStdout = outputs.filter { $0.file == nil }.map(\.format)
        guard toStdout.count <= 1 else {
            throw UsageProblem(
                "formats \(toStdout.joined(separator: " and ")) would both go to standard output: give all but one an --output FILE")
        }
        for o in outputs where Reporters.named(o.format) == nil {
            throw UsageProblem("--format \(o.format): unknown format; one of \(Reporters.names.joined(separator: ", "))")
        }
        let files = outputs.compactMap(\.file)
        if let twice = files.first(where: { f in files.count { $0 == f } > 1 }) {
            throw UsageProblem("--output \(twice) is given twice")
        }
        return OutputPlan(outputs: outputs.map { Output(format: $0.format, file: $0.file) })
    }
}
