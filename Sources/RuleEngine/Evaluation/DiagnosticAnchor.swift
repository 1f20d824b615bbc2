import Findings
import SystemCalls

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
    /// A file's text for a line lookup, indexed once per evaluation (the caller caches it): many
    /// findings in one large file cost a lookup each.
    let text: (String) -> TextIndex?

    init(isFile: @escaping (String) -> Bool, list: @escaping (String) -> [DirectoryEntry], text: @escaping (String) -> TextIndex?) {
        self.isFile = isFile
        self.list = list
        self.text = text
    }

    /// Over plain reads, each file indexed once for this anchor.
    init(isFile: @escaping (String) -> Bool, list: @escaping (String) -> [DirectoryEntry], read: @escaping (String) -> [UInt8]?) {
        let cache = TextIndexCache(read: read)
        self.init(isFile: isFile, list: list, text: cache.index)
    }

    struct Location: Equatable {
        var path: String
        var line: Int?
        var column: Int? = nil
        var related: [String]
        var relatedLocations: [RelatedLocation] = []
        /// Said after the message: where a missing key goes.
        var hint: String? = nil
    }

    /// Where a finding is shown. `key` names the plist key it is about, where the rule knows it.
    func anchor(_ location: Location, projectDirectory: String, message: String, key: String? = nil) -> Location {
        var result = location
        if !isFile(location.path), let (declaring, line) = declaringFile(of: location, projectDirectory: projectDirectory, message: message)
        {
            result.path = declaring
            result.line = line
            result.related = [location.path] + location.related.filter { $0 != location.path && $0 != declaring }
        }
        guard isFile(result.path) else { return result }
        if let entry = setEntry(using: result.path) { result.relatedLocations.append(entry) }
        // A text file: the finding has a line and a column (the key's, the entry's, the setting's,
        // else the file's first line: a finding about the whole file).
        guard TextDocument.mayBeText(result.path), let index = text(result.path), index.isText else { return result }
        if result.line == nil {
            let place = position(in: index, path: result.path, message: message, key: key)
            result.line = place.line
            result.column = place.column
            result.hint = place.hint
        }
        if result.column == nil, let line = result.line { result.column = index.firstColumn(line: line) }
        return result
    }

    /// The position of a finding in a text file that the rule gave no line for.
    private func position(in index: TextIndex, path: String, message: String, key: String?) -> (line: Int, column: Int, hint: String?) {
        let name = RelativePath.name(path)
        let start = index.firstContent
        if name.hasSuffix(".plist") || name.hasSuffix(".xcprivacy") || name.hasSuffix(".entitlements") {
            return index.plistPosition(mentionedIn: message, key: key) ?? (start.line, start.column, nil)
        }
        if name == "Contents.json" {
            // A finding about the set (a slot with no image, no App Store icon): the "images" list,
            // where an entry goes.
            if let images = index.jsonString("images") { return (images.line, images.column, nil) }
        }
        if name == "project.pbxproj" {
            if let line = index.settingLine(mentionedIn: message) { return (line, index.firstColumn(line: line), nil) }
            if let target = TextLines.quotedTarget(in: message), let line = index.pbxprojLine(naming: target) {
                return (line, index.firstColumn(line: line), nil)
            }
        }
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            if let at = index.yamlKeyPosition(mentionedIn: message) { return (at.line, at.column, nil) }
        }
        return (start.line, start.column, nil)
    }

    /// For a file in an asset set (or a layer of an Icon Composer bundle): the line of the
    /// `Contents.json` (`icon.json`) entry that uses it.
    private func setEntry(using path: String) -> RelatedLocation? {
        let folder = RelativePath.parent(path)
        let name = RelativePath.name(path)
        let declaring: String
        if SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(folder)) != nil {
            declaring = RelativePath.join(folder, "Contents.json")
        } else if RelativePath.name(folder) == "Assets",
            SubjectClassifier.isIconBundleName(RelativePath.name(RelativePath.parent(folder))[...])
        {
            declaring = RelativePath.join(RelativePath.parent(folder), "icon.json")
        } else {
            return nil
        }
        guard name != "Contents.json", declaring != path, isFile(declaring), let index = text(declaring) else { return nil }
        if let at = index.jsonString(TextLines.jsonEscaped(name)) {
            return RelatedLocation(
                path: declaring, line: at.line, column: at.column, message: "the \(RelativePath.name(declaring)) entry that uses \(name)")
        }
        let at = index.jsonString("images") ?? index.jsonString("groups") ?? index.firstContent
        return RelatedLocation(
            path: declaring, line: at.line, column: at.column, message: "\(RelativePath.name(declaring)), which names no entry for \(name)")
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
                if let entry = location.line, path != folder, let index = text(contents),
                    let named = index.firstPosition(containing: ["\"\(RelativePath.name(path))\""], from: entry, within: 16)
                {
                    return (contents, named.line)
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
                ? text(pbxproj).flatMap { $0.settingLine(mentionedIn: message) }
                : text(pbxproj).flatMap { $0.pbxprojLine(naming: RelativePath.name(path)) }
            return (pbxproj, line)
        }
        for name in [".reswatch.yaml", "project.yml", "Project.swift", "Info.plist"] {
            let file = RelativePath.join(projectDirectory, name)
            if isFile(file) { return (file, nil) }
        }
        return nil
    }
}

/// Finding places in text: the searches the anchor makes, on an indexed file.
extension TextIndex {
    /// The line of a pbxproj that declares a file, folder or target (`ID /* NAME */ = {`), else the
    /// first that names it: its comment or a setting whose value it is (`path = NAME;`).
    func pbxprojLine(naming name: String) -> Int? {
        guard !name.isEmpty else { return nil }
        return firstPosition(containing: ["/* \(name) */ = {"])?.line
            ?? firstPosition(containing: ["/* \(name) */", "= \(name);", "= \"\(name)\";"])?.line
    }

    /// The line that sets the first build setting (`INFOPLIST_FILE`) the message names; where the
    /// message also names a path, the line that sets it to that file's name is preferred.
    func settingLine(mentionedIn message: String) -> Int? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "/" || $0 == "." || $0 == "-") }
        let names = words.filter { $0.contains("/") }.map { String($0.split(separator: "/").last ?? "") }
        for word in words where word.count >= 6 && word.contains("_") && word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) {
            for name in names where !name.isEmpty {
                if let at = firstPosition(containing: ["\(word) = \(name);", "\(word) = \"\(name)\";"]) { return at.line }
            }
            if let at = firstPosition(containing: ["\(word) = "]) { return at.line }
        }
        return nil
    }

    /// In a YAML file: the first key the message names as a key (`info-plist:`), where the file
    /// has it at the start of a line.
    func yamlKeyPosition(mentionedIn message: String) -> Position? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }.map(String.init)
        for word in words where word.count >= 2 && message.contains(word + ":") {
            for line in 1...lineCount {
                let text = String(
                    decoding: bytes[lineStarts[line - 1]..<(line < lineCount ? lineStarts[line] : bytes.count)], as: UTF8.self)
                let indent = text.prefix { $0 == " " || $0 == "\t" || $0 == "-" }
                if text.dropFirst(indent.count).hasPrefix(word + ":") { return (line, indent.utf16.count + 1) }
            }
        }
        return nil
    }

    /// An XML plist (not binary, not OpenStep).
    var isXMLPlist: Bool {
        let head = bytes.prefix(64).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return head.first == UInt8(ascii: "<")
    }

    /// The position of the key a finding is about (`key`, else the first key the message names)
    /// and, when the message quotes a value (`"Icon.png"`), of that value at or after the key; for
    /// a key the file lacks (`key`, or a message that says "no KEY"), the top-level `<dict>` and a
    /// hint that says where to add it. Nil for a plist that is not XML.
    func plistPosition(mentionedIn message: String, key: String?) -> (line: Int, column: Int, hint: String?)? {
        guard isXMLPlist else { return nil }
        if let at = keyPosition(mentionedIn: message, key: key) { return (at.line, at.column, nil) }
        guard let dict = firstPosition(containing: ["<dict>", "<dict/>"]) else { return nil }
        let missing = key ?? TextLines.missingKey(in: message)
        return (dict.line, dict.column, missing.map { "add <key>\($0)</key> to the top-level <dict> at line \(dict.line)" })
    }

    private func keyPosition(mentionedIn message: String, key: String?) -> Position? {
        let words: [Substring] =
            key.map { [$0[...]] }
            ?? message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "~" || $0 == "-") }.filter {
                $0.first?.isUppercase == true && $0.count >= 6
            }
        for word in words {
            guard let keyAt = plistKey(String(word)) else { continue }
            for value in TextLines.quoted(message) {
                if let valueAt = firstPosition(containing: ["<string>\(value)</string>"], from: keyAt.line) { return valueAt }
            }
            return keyAt
        }
        return nil
    }
}

/// Line lookups in the text of the files findings are anchored to, on plain bytes (for callers
/// that place one finding; the anchor itself works on a `TextIndex`).
public enum TextLines {
    /// The 1-based line of the first line that contains any of `needles`.
    public static func firstLine(in bytes: [UInt8], containing needles: [String], from start: Int = 1) -> Int? {
        TextIndex(bytes).firstPosition(containing: needles, from: start)?.line
    }

    /// For an XML plist: the line of the key the message names (and of the value it quotes).
    /// Binary plists have no lines: nil.
    public static func plistLine(in bytes: [UInt8], mentionedIn message: String) -> Int? {
        let index = TextIndex(bytes)
        guard index.isXMLPlist else { return nil }
        return index.plistPosition(mentionedIn: message, key: nil).flatMap { $0.hint == nil ? $0.line : nil }
    }

    /// A name as it is written inside a JSON string.
    public static func jsonEscaped(_ name: String) -> String {
        var out = ""
        for c in name.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A target named in a message ("target Widget", "target 'Widget'").
    static func quotedTarget(in message: String) -> String? {
        guard let range = message.range(of: "target ") else { return nil }
        let rest = message[range.upperBound...].drop { $0 == "'" || $0 == "\"" }
        let name = rest.prefix { !($0 == "," || $0 == ";" || $0 == ":" || $0 == ")" || $0 == "'" || $0 == "\"" || $0 == " ") }
        return name.isEmpty ? nil : String(name)
    }

    /// A key a message says is missing ("has no UIRequiredDeviceCapabilities").
    static func missingKey(in message: String) -> String? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "~") }
        for (i, word) in words.enumerated().dropFirst() where words[i - 1] == "no" {
            let uppers = word.prefix { $0.isUppercase }.count
            if uppers >= 2, word.count >= 8, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "~" }) { return String(word) }
        }
        return nil
    }

    /// The "quoted" parts of a message.
    static func quoted(_ message: String) -> [String] {
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }.filter { !$0.isEmpty && !$0.contains("<") }
    }
}

/// Text indexes of the files one evaluation's findings are placed in, each built once.
final class TextIndexCache {
    private let read: (String) -> [UInt8]?
    private var indexes: [String: TextIndex?] = [:]

    init(read: @escaping (String) -> [UInt8]?) { self.read = read }

    func index(_ path: String) -> TextIndex? {
        if let cached = indexes[path] { return cached }
        let index = read(path).map(TextIndex.init)
        indexes[path] = index
        return index
    }
}

/// Which files findings can point into by line: text, not images or binary plists.
enum TextDocument {
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "heic", "heif", "pdf", "tif", "tiff", "webp", "bmp", "svgz", "car",
    ]

    /// From the name alone: a file without an extension (`iTunesArtwork`) or an image is no text.
    static func mayBeText(_ path: String) -> Bool {
        let name = RelativePath.name(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return !imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// From the bytes: no NUL in the first 8 KiB, and not a binary plist.
    static func isText(_ bytes: [UInt8]) -> Bool {
        !bytes.starts(with: [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]) && !bytes.prefix(8192).contains(0)  // "bplist"
    }
}
