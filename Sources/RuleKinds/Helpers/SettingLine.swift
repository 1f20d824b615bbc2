import ProjectModel
import RuleKit

/// Where a build setting is written, in the file its origin names: for findings about a setting
/// (a pbxproj origin has no line of its own).
enum SettingLine {
    /// Where `setting` of `settings` is written (its file and line), or the project's folder when
    /// nothing sets it (Xcode's default): where a finding about it goes.
    static func place(
        of setting: String, in settings: ResolvedBuildSettings?, context: EvaluationContext
    ) -> (path: String, line: Int?) {
        guard let value = settings?.values[setting], value.origin != .xcodeDefault else { return (context.project.directory, nil) }
        let line =
            value.origin.line ?? find(setting, value: value.raw, in: value.origin.file, anchor: value.origin.anchor, context: context)
        return (value.origin.file, line)
    }

    /// The first line of `path` that sets `setting` (`NAME = …` in a pbxproj or an `.xcconfig`,
    /// `NAME: …` in `project.yml`), to `value` when given (as written, quoted or not); nil when none.
    /// `anchor`: the pbxproj configuration object that sets it (`SettingOrigin.anchor`): its own
    /// lines are searched first (from its id to its `name =`), so that a finding about Release is
    /// not shown on Debug's line.
    static func find(
        _ setting: String, value: String? = nil, in path: String, anchor: String? = nil, context: EvaluationContext
    ) -> Int? {
        // Split once per file and batch: a project's findings about settings all look in its pbxproj.
        let split: [Substring]? = context.derived(path, tag: "setting-lines") { bytes in
            (try? bytes.get()).map { String(decoding: $0, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) }
        }
        guard let lines = split else { return nil }
        if let anchor, let start = lines.firstIndex(where: { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix(anchor + " ") }) {
            var end = start + 1
            while end < lines.count, !lines[end].drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("name =") { end += 1 }
            if end < lines.count, let hit = find(setting, value: value, lines: lines[start...end], offset: start) { return hit }
        }
        return find(setting, value: value, lines: lines[...], offset: 0)
    }

    static func find(_ setting: String, value: String?, lines: ArraySlice<Substring>, offset: Int) -> Int? {
        var number = offset
        var first: Int?
        for line in lines {
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
