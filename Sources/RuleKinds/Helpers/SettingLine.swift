import RuleKit

/// Where a build setting is written, in the file its origin names: for findings about a setting
/// (a pbxproj origin has no line of its own).
enum SettingLine {
    /// The first line of `path` that sets `setting` (`NAME = …` in a pbxproj or an `.xcconfig`,
    /// `NAME: …` in `project.yml`), to `value` when given (as written, quoted or not); nil when none.
    static func find(_ setting: String, value: String? = nil, in path: String, context: EvaluationContext) -> Int? {
        guard case .success(let bytes) = context.read(path) else { return nil }
        var number = 0
        var first: Int?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let text = line.drop { $0 == " " || $0 == "\t" || $0 == "\"" }
            guard text.hasPrefix(setting) else { continue }
            let rest = text.dropFirst(setting.utf8.count).drop { $0 == "\"" || $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("=") || rest.hasPrefix(":") else { continue }
            guard let value else { return number }
            let written = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            if written.hasPrefix(value + ";") || written.hasPrefix("\"\(value)\"")
                || written.hasPrefix(value) && written.count == value.count
            {
                return number
            }
            if first == nil { first = number }
        }
        return first
    }
}
