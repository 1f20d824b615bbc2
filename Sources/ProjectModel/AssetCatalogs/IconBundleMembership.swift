import SystemCalls

/// Which Icon Composer bundles (`*.icon`, Xcode 26) a target compiles as app icons.
///
/// A `.icon` is an app icon only when it is an input of the target's asset-catalog compile
/// (actool): swift-build passes files of type `folder.iconcomposer.icon` next to the
/// `.xcassets` (swiftlang/swift-build `AssetCatalogCompiler.xcspec`, PR #624). Xcode wires one in
/// three ways, each read here:
/// * a file reference in the target's Copy Bundle Resources phase (`lastKnownFileType =
///   folder.iconcomposer.icon`);
/// * a `.icon` inside a folder the target synchronizes (`PBXFileSystemSynchronizedRootGroup`,
///   objectVersion 77), unless a membership exception leaves it out or `explicitFolders` makes it
///   a plain folder;
/// * XcodeGen: a `.icon` inside one of the target's `sources` (XcodeGen 2.45.1 and later types it
///   as a file in the Resources phase, yonaskolb/XcodeGen #1600).
/// Added as a plain folder (`lastKnownFileType = folder`), or expanded into its files (XcodeGen
/// before 2.45.1, issue #1556: `icon.json` and the layers bundled one by one), it is copied raw
/// and actool never sees it ("None of the input catalogs contained a matching … app icon set").
/// Sources: Icon Composer, Xcode 26 release notes (docs/sources.md).
public struct IconBundleMembership: Sendable, Hashable {
    /// A `.icon` named in the Resources phase.
    public struct Reference: Sendable, Hashable {
        /// Root-relative path of the `.icon` folder.
        public let path: String
        /// `lastKnownFileType` / `explicitFileType`, when the reference has one.
        public let fileType: String?
        /// Its files are resources one by one (icon.json, layers), not the bundle.
        public let expanded: Bool

        public init(path: String, fileType: String?, expanded: Bool = false) {
            self.path = path
            self.fileType = fileType
            self.expanded = expanded
        }
    }

    /// A folder whose contents the target takes as they are on disk.
    public struct Folder: Sendable, Hashable {
        /// Root-relative path of the folder.
        public let path: String
        /// How the target takes it ("the synchronized folder App", "XcodeGen sources App").
        public let how: String
        /// Root-relative paths inside it the target leaves out (membership exceptions).
        public var excluded: [String] = []
        /// Root-relative paths inside it taken as a plain folder or another file type, each with
        /// how it is taken and what to change ("a plain folder (explicitFolders): remove it there").
        public var typedOtherwise: [String: String] = [:]

        public init(path: String, how: String, excluded: [String] = [], typedOtherwise: [String: String] = [:]) {
            self.path = path
            self.how = how
            self.excluded = excluded
            self.typedOtherwise = typedOtherwise
        }
    }

    /// What the target does with one `.icon` on disk.
    public enum Verdict: Sendable, Hashable {
        /// actool compiles it; the text says how it is wired.
        case compiled(String)
        /// The target bundles it, but not as an icon; the text says how, and what to change.
        case notAnIcon(String)
        /// The target does not bundle it at all.
        case notMember
    }

    /// The target's name, for messages.
    public var target: String
    public var references: [Reference] = []
    public var folders: [Folder] = []

    public init(target: String, references: [Reference] = [], folders: [Folder] = []) {
        self.target = target
        self.references = references
        self.folders = folders
    }

    /// The Icon Composer file type Xcode gives a `.icon` (swift-build `StandardFileTypes.xcspec`).
    public static let fileType = "folder.iconcomposer.icon"

    /// Whether actool compiles the `.icon` at `path` for this target.
    public func compiles(_ path: String) -> Bool {
        if case .compiled = verdict(for: path) { return true }
        return false
    }

    /// What the target does with the `.icon` at `path` (root-relative).
    public func verdict(for path: String) -> Verdict {
        if let reference = references.first(where: { $0.path == path }) {
            if reference.expanded {
                return .notAnIcon(
                    "target \(target) bundles the files inside it (icon.json, layers) one by one instead of the .icon itself, so actool never compiles it (XcodeGen before 2.45.1 does this: set options.fileTypes.icon.file: true, or update XcodeGen)"
                )
            }
            switch reference.fileType {
            case Self.fileType?:
                return .compiled("a \(Self.fileType) resource of target \(target)")
            case nil, "wrapper.icon"?:
                // No type (Xcode infers it from the extension) or XcodeGen's own name for it.
                return .compiled("a resource of target \(target) (file type \(reference.fileType ?? "not set"), inferred from .icon)")
            case let other?:
                return .notAnIcon(
                    "target \(target) bundles it as '\(other)', not as an Icon Composer icon, so actool never compiles it: set its type to Icon Composer Icon (lastKnownFileType = \(Self.fileType))"
                )
            }
        }
        for folder in folders where RelativePath.isWithin(path, folder.path) && path != folder.path {
            if folder.excluded.contains(where: { RelativePath.isWithin(path, $0) }) { continue }
            if let (_, how) = folder.typedOtherwise.first(where: { RelativePath.isWithin(path, $0.key) }) {
                return .notAnIcon("\(folder.how) takes it as \(how), so actool never compiles it")
            }
            return .compiled("inside \(folder.how)")
        }
        return .notMember
    }
}
