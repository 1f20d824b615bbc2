/// Where a finding is shown. A CI annotation or an editor diagnostic needs an existing file and,
/// where the finding comes from one, its line. A finding about a file that does not exist
/// (`icon.file-missing`) or about a folder (a set, a catalog, a project) is moved to the file that
/// declares it: the set's or catalog's `Contents.json` (at the entry's line the rule gave),
/// `Settings.bundle/Root.plist`, else the project's `project.pbxproj` (at the line that names the
/// missing file or folder), `.reswatch.yaml` or `Info.plist`. The original path goes first in
/// `related`. A finding in an XML plist without a line gets the line of the key its message names.
///
/// Every look at the tree goes through the caller's recording accessors: the place a finding is
/// shown depends on those files, so a change to them re-runs the evaluation that found it.
struct DiagnosticAnchor {
    /// True when a root-relative path is a file (or a link to one) in the tree.
    let isFile: (String) -> Bool
    /// A directory's entries (empty when it is not one).
    let list: (String) -> [DirectoryEntry]
    /// A file's bytes for a line lookup.
    let read: (String) -> [UInt8]?

    struct Location: Equatable {
        var path: String
        var line: Int?
        var related: [String]
    }

    func anchor(_ location: Location, projectDirectory: String, message: String) -> Location {
        var result = location
        if isFile(location.path) {
            if location.line == nil, location.path.hasSuffix(".plist") || location.path.hasSuffix(".xcprivacy"),
                let bytes = read(location.path)
            {
                result.line = TextLines.plistLine(in: bytes, mentionedIn: message)
            }
            return result
        }
        guard let (declaring, line) = declaringFile(of: location, projectDirectory: projectDirectory, message: message) else {
            return result
        }
        result.path = declaring
        result.line = line
        result.related = [location.path] + location.related.filter { $0 != location.path && $0 != declaring }
        return result
    }

    private func firstFile(in folder: String) -> String? {
        list(folder).lazy.filter { !$0.isDirectory }.map { RelativePath.join(folder, $0.name) }.first(where: isFile)
    }

    /// The file that declares a missing file or a folder, and the line in it.
    private func declaringFile(of location: Location, projectDirectory: String, message: String) -> (String, Int?)? {
        let path = location.path
        for folder in RelativePath.selfAndAncestors(path) {
            let name = RelativePath.name(folder)
            if SubjectClassifier.assetSetType(ofDirectory: name) != nil || name.hasSuffix(".xcassets") {
                let contents = RelativePath.join(folder, "Contents.json")
                // The rule's line is the set's entry line: it belongs to this Contents.json. For a
                // file the entry names, the line of its "filename" within the entry is better.
                guard isFile(contents) else {
                    // No Contents.json (the finding may be just that): a file of the folder itself.
                    if folder == path, let first = firstFile(in: folder) { return (first, nil) }
                    continue
                }
                if let entry = location.line, path != folder, let bytes = read(contents),
                    let named = TextLines.firstLine(in: bytes, containing: ["\"\(RelativePath.name(path))\""], from: entry),
                    named - entry < 16
                {
                    return (contents, named)
                }
                return (contents, location.line)
            }
            if name == "Settings.bundle" {
                let root = RelativePath.join(folder, "Root.plist")
                if isFile(root) { return (root, nil) }
            }
            if folder == projectDirectory { break }
        }
        for entry in list(projectDirectory) where entry.isDirectory && entry.name.hasSuffix(".xcodeproj") {
            let pbxproj = RelativePath.join(RelativePath.join(projectDirectory, entry.name), "project.pbxproj")
            guard isFile(pbxproj) else { continue }
            // A finding about the project: the line of the build setting it names, if any.
            let line =
                path == projectDirectory
                ? read(pbxproj).flatMap { TextLines.settingLine(in: $0, mentionedIn: message) }
                : read(pbxproj).flatMap { TextLines.pbxprojLine(in: $0, naming: RelativePath.name(path)) }
            return (pbxproj, line)
        }
        for name in [".reswatch.yaml", "project.yml", "Project.swift", "Info.plist"] {
            let file = RelativePath.join(projectDirectory, name)
            if isFile(file) { return (file, nil) }
        }
        return nil
    }
}

/// Line lookups in the text of the files findings are anchored to.
public enum TextLines {
    /// The 1-based line of the first line that contains any of `needles`.
    public static func firstLine(in bytes: [UInt8], containing needles: [String], from start: Int = 1) -> Int? {
        let patterns = needles.map { Array($0.utf8) }.filter { !$0.isEmpty }
        var line = 1
        var lineStart = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
                if line >= start {
                    let slice = bytes[lineStart..<i]
                    if patterns.contains(where: { contains(slice, $0) }) { return line }
                }
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return nil
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// The line of a pbxproj that declares a file, folder or target (`ID /* NAME */ = {`), else the first that names it: its comment or a setting whose value it is (`path = NAME;`).
    public static func pbxprojLine(in bytes: [UInt8], naming name: String) -> Int? {
        guard !name.isEmpty else { return nil }
        // Its declaration (`ID /* NAME */ = {`) first; else the first line that mentions it.
        return firstLine(in: bytes, containing: ["/* \(name) */ = {"])
            ?? firstLine(in: bytes, containing: ["/* \(name) */", "= \(name);", "= \"\(name)\";"])
    }

    /// The line that sets the first build setting (`INFOPLIST_FILE`) the message names; where the
    /// message also names a path, the line that sets it to that file's name is preferred.
    public static func settingLine(in bytes: [UInt8], mentionedIn message: String) -> Int? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "/" || $0 == "." || $0 == "-") }
        let names = words.filter { $0.contains("/") }.map { String($0.split(separator: "/").last ?? "") }
        for word in words where word.count >= 6 && word.contains("_") && word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) {
            for name in names where !name.isEmpty {
                if let line = firstLine(in: bytes, containing: ["\(word) = \(name);", "\(word) = \"\(name)\";"]) { return line }
            }
            if let line = firstLine(in: bytes, containing: ["\(word) = "]) { return line }
        }
        return nil
    }

    /// For an XML plist: the line of the first `<key>` the message names and, when the message
    /// quotes a value (`"Icon.png"`), the line of that value at or after the key. Binary plists
    /// have no lines: nil.
    public static func plistLine(in bytes: [UInt8], mentionedIn message: String) -> Int? {
        guard isXML(bytes) else { return nil }
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "~" || $0 == "-") }
        for word in words where word.first?.isUppercase == true && word.count >= 6 {
            guard let keyLine = firstLine(in: bytes, containing: ["<key>\(word)</key>"]) else { continue }
            for value in quoted(message) {
                if let valueLine = firstLine(in: bytes, containing: ["<string>\(value)</string>"], from: keyLine) { return valueLine }
            }
            return keyLine
        }
        return nil
    }

    private static func isXML(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(64).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return head.first == UInt8(ascii: "<")
    }

    /// The "quoted" parts of a message.
    private static func quoted(_ message: String) -> [String] {
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }.filter { !$0.isEmpty && !$0.contains("<") }
    }
}
