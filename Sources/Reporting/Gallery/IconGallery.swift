import Findings
import Foundation
import ProjectModel
import SystemCalls

/// The icons of the checked projects as the HTML report draws them: per project, each app icon
/// set (and launch image set, tvOS brand-asset image set, and Icon Composer bundle) with its slots in Contents.json
/// order, the order Xcode lays them out in (idiom, size, scale), each slot's picture or the reason
/// it has none.
struct IconGallery {
    struct Slot {
        let idiom: String
        let size: String
        let scale: String
        /// "dark", "tinted" …, or "".
        let appearance: String
        let filename: String?
        /// Root-relative path of its image, when the entry names one.
        let path: String?
        let picture: Thumbnails.Picture?
        /// The 1024 App Store slot (drawn larger, its transparent pixels outlined).
        let isStore: Bool

        var label: String {
            let kind = idiom == "ios-marketing" || isStore ? "App Store" : idiom
            return "\(kind) \(size)" + (scale.isEmpty ? "" : "@\(scale)") + (appearance.isEmpty ? "" : " \(appearance)")
        }
    }

    struct IconSet {
        /// Absolute root of the checked tree, and the set's path in it.
        let root: String
        let path: String
        /// "app icon set", "tvOS brand assets", "Icon Composer icon".
        let kind: String
        let slots: [Slot]
        /// Why its slots are not drawn (a Contents.json that does not parse, an `.icon`'s layers).
        let note: String?
    }

    struct Project {
        let root: String
        let path: String
        var sets: [IconSet] = []
    }

    var projects: [Project] = []

    /// Folders never searched for icons: other projects' products and build output.
    static let skipped: Set<String> = ["Pods", "node_modules", "Carthage", ".git", "build", "DerivedData", ".build", ".reswatch"]
    /// At most this many folders are listed per root (a page is not a crawl of a whole disk).
    static let folderBudget = 50_000

    /// The icon sets of every project of `report`, thumbnails made by `thumbnails`.
    static func gather(_ report: CheckReport, thumbnails: Thumbnails) -> IconGallery {
        var gallery = IconGallery()
        var seen = Set<String>()
        for project in report.projects where seen.insert(project.root + "\u{0}" + project.path).inserted {
            gallery.projects.append(Project(root: project.root, path: project.path))
        }
        for root in Set(gallery.projects.map(\.root)).sorted() {
            for set in findSets(root: root) {
                // The most specific project holding it.
                let owner = gallery.projects.indices.filter {
                    gallery.projects[$0].root == root && RelativePath.isWithin(set, gallery.projects[$0].path)
                }
                .max { gallery.projects[$0].path.utf8.count < gallery.projects[$1].path.utf8.count }
                guard let owner else { continue }
                gallery.projects[owner].sets.append(read(set, root: root, thumbnails: thumbnails))
            }
        }
        return gallery
    }

    /// Root-relative paths of the `.appiconset`, `.brandassets` image sets and `.icon` folders
    /// under `root`, breadth first, in name order.
    static func findSets(root: String) -> [String] {
        var found: [String] = []
        var queue = [""]
        var listed = 0
        while !queue.isEmpty, listed < folderBudget {
            let folder = queue.removeFirst()
            listed += 1
            let absolute = folder.isEmpty ? root : root + "/" + folder
            // Links to folders are not followed (as the engine does not): no loop, no escape.
            guard let entries = try? FileSystem.listDirectory(absolute) else { continue }
            for entry in entries where entry.isDirectory && !skipped.contains(entry.name) {
                let name = entry.name
                let path = folder.isEmpty ? name : folder + "/" + name
                if name.hasSuffix(".appiconset") || name.hasSuffix(".icon") || name.hasSuffix(".launchimage")
                    || (name.hasSuffix(".imageset") && folder.contains(".brandassets"))
                {
                    found.append(path)
                } else if !name.hasSuffix(".framework") && !name.hasSuffix(".xcframework") && !name.hasSuffix(".docset") {
                    queue.append(path)
                }
            }
        }
        return found
    }

    /// Whether something is at `path` (following links), by the tree's own file-name rules.
    static func exists(_ path: String) -> Bool { (try? FileSystem.statusFollowingLinks(path)) != nil }

    static func read(_ set: String, root: String, thumbnails: Thumbnails) -> IconSet {
        if set.hasSuffix(".icon") { return iconBundle(set, root: root, thumbnails: thumbnails) }
        let kind =
            set.hasSuffix(".appiconset") ? "app icon set" : set.hasSuffix(".launchimage") ? "launch image set" : "tvOS brand-asset image"
        guard let data = try? FileSystem.readFile(root + "/" + set + "/Contents.json", limit: 4 << 20) else {
            return IconSet(root: root, path: set, kind: kind, slots: [], note: "no Contents.json: no slots to draw")
        }
        let contents: AssetContents
        switch AssetContentsReader.parse(data) {
        case .success(let parsed): contents = parsed
        case .failure(let error): return IconSet(root: root, path: set, kind: kind, slots: [], note: "Contents.json: \(error)")
        }
        let slots = contents.images.prefix(400).map { entry -> Slot in
            let isStore = entry.idiom == "ios-marketing" || (entry.size == "1024x1024" && (entry.platform ?? "") == "ios")
            let path = entry.filename.map { set + "/" + $0 }
            let picture = path.map { p -> Thumbnails.Picture in
                let file = root + "/" + p
                guard exists(file) else { return .notDrawn("the file is missing") }
                return thumbnails.picture(of: file, side: isStore ? 160 : 64, outline: isStore)
            }
            return Slot(
                idiom: entry.idiom ?? "?",
                // A launch image has no size: its device subtype, orientation and extent name it.
                size: entry.size ?? [entry.subtype, entry.orientation, entry.extent].compactMap { $0 }.joined(separator: " "),
                scale: entry.scale ?? "",
                appearance: entry.appearances.joined(separator: " "),
                filename: entry.filename, path: path, picture: picture, isStore: isStore)
        }
        return IconSet(root: root, path: set, kind: kind, slots: slots, note: nil)
    }

    /// An Icon Composer bundle: each layer its icon.json names, a PNG drawn; an SVG (or any
    /// other format) is listed, never put in the page (an SVG can carry script).
    static func iconBundle(_ set: String, root: String, thumbnails: Thumbnails) -> IconSet {
        let kind = "Icon Composer icon"
        guard let data = try? FileSystem.readFile(root + "/" + set + "/icon.json", limit: 1 << 20) else {
            return IconSet(root: root, path: set, kind: kind, slots: [], note: "no icon.json that can be read: no layers to draw")
        }
        guard case .success(let document) = IconComposerDocument.parse(data) else {
            return IconSet(root: root, path: set, kind: kind, slots: [], note: "icon.json does not parse: no layers to draw")
        }
        var names: [String] = []
        for asset in document.assetNames where !names.contains(asset.name) { names.append(asset.name) }
        let slots = names.prefix(64).map { name -> Slot in
            let path = set + "/Assets/" + name
            let picture: Thumbnails.Picture
            if !exists(root + "/" + path) {
                picture = .notDrawn("the file is missing")
            } else if name.lowercased().hasSuffix(".png") {
                picture = thumbnails.picture(of: root + "/" + path, side: 64)
            } else {
                picture = .notDrawn("not drawn here (\((name as NSString).pathExtension.uppercased()) layer)")
            }
            return Slot(idiom: "layer", size: name, scale: "", appearance: "", filename: name, path: path, picture: picture, isStore: false)
        }
        return IconSet(
            root: root, path: set, kind: kind, slots: slots, note: "the layers icon.json names; Apple renders the icon from them")
    }
}
