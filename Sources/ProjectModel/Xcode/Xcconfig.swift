import SystemCalls

/// One assignment of a build setting in an `.xcconfig` file (or a pbxproj configuration).
public struct SettingAssignment: Sendable, Hashable {
    public let key: String
    /// Conditions such as `sdk=iphoneos*` (from `KEY[sdk=iphoneos*] = …`).
    public let conditions: [String: String]
    public let value: String
    /// Where it was written: root-relative file and 1-based line.
    public let origin: SettingOrigin

    public init(key: String, conditions: [String: String] = [:], value: String, origin: SettingOrigin) {
        self.key = key
        self.conditions = conditions
        self.value = value
        self.origin = origin
    }
}

/// Where a build setting's value came from, as shown with the context.
public struct SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    /// For pbxproj values: which configuration of which target (or the project).
    public let detail: String?
    /// For pbxproj values: the id of the configuration object that sets it (its lines are found
    /// by it: a project sets one setting in each of its configurations).
    public let anchor: String?

    public init(file: String, line: Int? = nil, detail: String? = nil, anchor: String? = nil) {
        self.file = file
        self.line = line
        self.detail = detail
        self.anchor = anchor
    }

    public static let xcodeDefault = SettingOrigin(file: "Xcode default")

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let detail { text += ", \(detail)" }
        return text
    }
}

/// A problem met while reading an xcconfig (an `#include` that is missing, a line that is no
/// assignment): reported with the context, never fatal.
public struct XcconfigProblem: Error, Sendable, Hashable {
    public let file: String
    public let line: Int
    public let message: String
}

/// Reads `.xcconfig` files the way Xcode does: `KEY = value` (optionally `KEY[sdk=…][arch=…] =`),
/// `//` comments, an optional trailing `;`, `#include "file"` and `#include? "file"` relative to
/// the including file (a missing `#include?` is fine, a missing `#include` is a problem), include
/// cycles stopped. Later assignments win; `$(inherited)` is resolved by `BuildSettings`.
public enum XcconfigReader {
    /// Largest include depth followed (Xcode has none; real projects use 2–4).
    static let maxDepth = 16

    public static func read(
        _ path: String, files: some ProjectFileAccess, depth: Int = 0, seen: Set<String> = []
    ) -> (assignments: [SettingAssignment], problems: [XcconfigProblem], inputs: [String]) {
        var assignments: [SettingAssignment] = []
        var problems: [XcconfigProblem] = []
        var inputs = [path]
        guard case .success(let bytes) = files.read(path) else { return ([], [], inputs) }
        // A byte-order mark (Windows editors write one) is not part of the first setting's name.
        let text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
        var lineNumber = 0
        // LF, CRLF (a file saved on Windows or checked out with core.autocrlf) and CR end a line.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#include") {
                let nested = include(trimmed, in: path, line: lineNumber, files: files, depth: depth, seen: seen)
                assignments += nested.assignments
                problems += nested.problems
                inputs += nested.inputs
                continue
            }
            switch assignment(trimmed, in: path, line: lineNumber) {
            case .success(let a): assignments.append(a)
            case .failure(let problem): problems.append(problem)
            }
        }
        return (assignments, problems, inputs)
    }

    /// An `#include "file"` line: the file's settings, read in place (`#include?` may be missing).
    static func include(
        _ trimmed: String, in path: String, line lineNumber: Int, files: some ProjectFileAccess, depth: Int, seen: Set<String>
    ) -> (assignments: [SettingAssignment], problems: [XcconfigProblem], inputs: [String]) {
        let optional = trimmed.hasPrefix("#include?")
        let rest = trimmed.dropFirst(optional ? 9 : 8).trimmingCharacters(in: .whitespaces)
        guard rest.hasPrefix("\""), rest.count >= 2, rest.hasSuffix("\"") else {
            // <…> names a file of the Xcode installation: not in the project.
            if rest.hasPrefix("<") { return ([], [], []) }
            return ([], [XcconfigProblem(file: path, line: lineNumber, message: "unreadable #include line")], [])
        }
        let target = String(rest.dropFirst().dropLast())
        let resolved = target.hasPrefix("/") ? nil : RelativePath.normalize(RelativePath.join(RelativePath.parent(path), target))
        guard let resolved else {
            return (
                [],
                [XcconfigProblem(file: path, line: lineNumber, message: "#include \"\(target)\" is outside the checked tree (not read)")],
                []
            )
        }
        if seen.contains(resolved) || depth >= maxDepth {
            return ([], [XcconfigProblem(file: path, line: lineNumber, message: "#include \"\(target)\" is circular (not read again)")], [])
        }
        if case .failure = files.read(resolved) {
            let problems = optional ? [] : [XcconfigProblem(file: path, line: lineNumber, message: "#include \"\(target)\": no such file")]
            return ([], problems, [resolved])
        }
        return read(resolved, files: files, depth: depth + 1, seen: seen.union([path]))
    }

    /// A `KEY[condition=value] = value` line.
    static func assignment(_ trimmed: String, in path: String, line lineNumber: Int) -> Result<SettingAssignment, XcconfigProblem> {
        // The assignment's "=" is the first one outside [conditions].
        var depth = 0
        let equals = trimmed.firstIndex { c in
            if c == "[" { depth += 1 } else if c == "]" { depth -= 1 }
            return c == "=" && depth == 0
        }
        guard let equals else { return .failure(XcconfigProblem(file: path, line: lineNumber, message: "not a setting (KEY = value)")) }
        var lhs = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if value.hasSuffix(";") { value = String(value.dropLast()).trimmingCharacters(in: .whitespaces) }
        var conditions: [String: String] = [:]
        while lhs.hasSuffix("]"), let open = lhs.lastIndex(of: "[") {
            let condition = lhs[lhs.index(after: open)..<lhs.index(before: lhs.endIndex)]
            for part in condition.split(separator: ",") {
                let kv = part.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { conditions[kv[0].trimmingCharacters(in: .whitespaces)] = kv[1].trimmingCharacters(in: .whitespaces) }
            }
            lhs = String(lhs[..<open]).trimmingCharacters(in: .whitespaces)
        }
        guard !lhs.isEmpty, lhs.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return .failure(XcconfigProblem(file: path, line: lineNumber, message: "not a setting name: \(lhs)"))
        }
        return .success(
            SettingAssignment(key: lhs, conditions: conditions, value: value, origin: SettingOrigin(file: path, line: lineNumber)))
    }
}
