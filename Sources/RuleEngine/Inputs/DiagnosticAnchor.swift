import Findings
import RuleKit
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
