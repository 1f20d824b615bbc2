import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `catalog.file-missing`, `catalog.unassigned`: actool's two warnings about the files of a set,
/// for every set kind that holds files (image, launch image, data and symbol sets, also inside
/// image stacks and brand assets; a colour set's entries name none, so any image in it is
/// unassigned). App icon sets have their own rules (`icon.file-missing`,
/// `icon.unassigned`). Source: actool (docs/sources.md).
package struct CatalogFilesKind: RuleKind {
    package static let name = "catalog-files"
    package static let summary = "Checks that the files an asset set's Contents.json names exist, and that every file in a set is named."
    package static let subjects: Set<SubjectKind> = [.catalog]

    package static let fileMissing = RuleInfo(
        id: "catalog.file-missing", severity: .warning,
        summary: "Contents.json of an image, launch image, data or symbol set names a file that is not in the set's folder.",
        rationale:
            "actool: \"The file \\\"X.png\\\" for the image set \\\"Y\\\" does not exist.\" The asset is compiled without that variant, so the app shows nothing (or another scale) where it was meant to be.",
        fix: "Add the file under that exact name, or remove the entry's \"filename\" (in Xcode: clear the slot).")
    package static let unassigned = RuleInfo(
        id: "catalog.unassigned", severity: .warning,
        summary: "A file in an image, launch image, data or symbol set that no Contents.json entry names, or an image in a colour set.",
        rationale:
            "actool: \"The image set \\\"X\\\" has an unassigned child.\" A file no entry names is not compiled into Assets.car; whatever it was meant to show is missing.",
        fix: "Assign the file to a slot in Xcode (or add an entry with its \"filename\"), or delete it.")

    package static let rules = [fileMissing, unassigned]

    /// Set folders by extension, with the Contents.json key listing their files and what actool
    /// calls them.
    static let judged: [String: (key: String, what: String)] = [
        "imageset": ("images", "image set"), "launchimage": ("images", "launch image set"), "dataset": ("data", "data set"),
        "symbolset": ("symbols", "symbol image set"), "colorset": ("colors", "color set"),
    ]
    /// Files an image, launch image or symbol set can hold (what Xcode accepts into a slot).
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "pdf", "svg", "heic", "heif", "gif", "tif", "tiff", "webp", "bmp", "ico", "icns", "jp2", "exr", "hdr",
    ]
    /// Folders holding no sets with files of their own (or judged by other rules): not entered.
    static let leaves: Set<String> = ["appiconset", "iconset", "cubetextureset", "mipmapset", "textureset", "arresourcegroup"]
    /// Catalogs nest groups and containers (image stacks, brand assets); a hostile tree may nest more.
    static let maximumDepth = 32

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        walk(subject.path, depth: 0, in: context)
    }

    func walk(_ folder: String, depth: Int, in context: EvaluationContext) {
        guard depth < Self.maximumDepth, case .success(let entries) = context.list(folder) else { return }
        for entry in entries.sorted(by: { $0.name < $1.name }) where entry.isDirectory && !entry.name.hasPrefix(".") {
            let path = RelativePath.join(folder, entry.name)
            let ext = entry.name.split(separator: ".").last.map { String($0).lowercased() } ?? ""
            if let judged = Self.judged[ext], entry.name.contains(".") {
                check(set: path, key: judged.key, what: judged.what, entries: context.list(path), in: context)
            } else if !Self.leaves.contains(ext) {
                walk(path, depth: depth + 1, in: context)
            }
        }
    }

    func check(set: String, key: String, what: String, entries: Result<[DirectoryEntry], SystemError>, in context: EvaluationContext) {
        let contentsPath = RelativePath.join(set, "Contents.json")
        // A set without a usable Contents.json is catalog.contents-* (or io.unreadable): not again.
        guard case .success(let listing) = entries, case .success(let bytes) = context.read(contentsPath),
            case .success(let contents) = AssetContentsReader.parse(bytes, entriesKey: key)
        else { return }
        let setName = RelativePath.name(set)
        let files = listing.filter { !$0.isDirectory }.map(\.name)
        let present = Set(files)
        let byLowercase = Dictionary(files.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var named = Set<String>()
        for (index, entry) in contents.images.enumerated() {
            guard let filename = entry.filename, !filename.isEmpty else { continue }
            named.insert(filename)
            if present.contains(filename) { continue }
            // Differs only in case: one finding naming both (the file is not unassigned on top).
            if let actual = byLowercase[filename.lowercased()] {
                named.insert(actual)
                context.report(
                    Self.fileMissing, path: contentsPath, line: entry.line,
                    message:
                        "\(key)[\(index)] of the \(what) \(setName) names \(filename); the file is \(actual) (found only on a case-insensitive disk)",
                    fix: "Rename the file or fix the \"filename\" so the case matches.", related: [RelativePath.join(set, actual)])
            } else {
                context.report(
                    Self.fileMissing, path: contentsPath, line: entry.line,
                    message: "\(key)[\(index)] of the \(what) \(setName) names \(filename), which is not in the set's folder",
                    related: [RelativePath.join(set, filename)])
            }
        }
        // actool takes only image files as children of an image set: a README.md that Flutter's
        // template keeps in LaunchImage.imageset is no unassigned child. A data set's files are data.
        let countsAsChild: (String) -> Bool = { name in
            key == "data" || Self.imageExtensions.contains(name.split(separator: ".").last.map { $0.lowercased() } ?? "")
        }
        for file in files.sorted() where file != "Contents.json" && !file.hasPrefix(".") && !named.contains(file) && countsAsChild(file) {
            context.report(
                Self.unassigned, path: RelativePath.join(set, file),
                message: "\(file) is in the \(what) \(setName) but no Contents.json entry names it", related: [contentsPath])
        }
    }
}
