import SystemCalls

/// What a rule evaluates. Each kind of subject is found from paths alone, so discovery is incremental.
public enum SubjectKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A PNG (or `.png`-named file) that is an icon, a launch image or in an asset set.
    case image
    /// An `.appiconset` / `.imageset` / `.launchimage` folder.
    case assetSet = "asset-set"
    /// An `Info.plist` or `*-Info.plist`.
    case infoPlist = "info-plist"
    /// A project directory (rules.md, "Project context").
    case project
    /// A `.lproj` folder.
    case localization
    /// A `Settings.bundle` folder.
    case settingsBundle = "settings-bundle"
    /// A `.storyboard` or `.xib` (launch screens).
    case interfaceFile = "interface-file"
    /// Any other loose `.png` (not in an asset set): resolved when Info.plist names it.
    case loosePNG = "loose-png"
    /// An asset catalog (`.xcassets` folder): checks across its sets.
    case catalog
    /// An Icon Composer bundle (`.icon` folder, Xcode 26): `icon.json` and its `Assets/`.
    case iconComposer = "icon-composer"
    /// A PNG layer inside an Icon Composer bundle (judged as an image, by no icon rule).
    case iconLayer = "icon-layer"
    /// A privacy manifest (`PrivacyInfo.xcprivacy`).
    case privacyManifest = "privacy-manifest"
    /// A vendored framework (`.framework` or `.xcframework` folder).
    case framework
    /// A Swift, Objective-C or C source file (scanned for required-reason APIs).
    case source
}

extension SubjectKind {
    /// Kinds whose subject is a folder (the set, the catalog, the `.lproj`, the project …).
    public var isDirectory: Bool {
        switch self {
        case .assetSet, .project, .localization, .settingsBundle, .catalog, .iconComposer, .framework: true
        case .image, .infoPlist, .interfaceFile, .loosePNG, .iconLayer, .privacyManifest, .source: false
        }
    }
}

public struct Subject: Sendable, Hashable, Comparable {
    public let kind: SubjectKind
    /// Root-relative path (the directory itself for asset sets and projects).
    public let path: String

    public init(_ kind: SubjectKind, _ path: String) {
        self.kind = kind
        self.path = path
    }

    public static func < (a: Subject, b: Subject) -> Bool {
        a.path != b.path ? a.path < b.path : a.kind.rawValue < b.kind.rawValue
    }
}

/// Path-based classification of subjects.
public enum SubjectClassifier {
    public static func assetSetType(ofDirectory name: String) -> String? { assetSetType(ofDirectory: name[...]) }

    /// "appiconset", "imageset" or "launchimage" for a folder so named (any ASCII case), else nil.
    public static func assetSetType(ofDirectory name: Substring) -> String? {
        // On the name's bytes, no copy: a rule's `applies(to:)` asks this for every image.
        RelativePath.withBytes(of: name) { assetSetType(ofDirectory: $0) }
    }

    /// `assetSetType(ofDirectory:)` of a name's bytes.
    public static func assetSetType(ofDirectory bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let ext = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
        if RelativePath.equals(ext, "appiconset", ignoringCase: true) { return "appiconset" }
        if RelativePath.equals(ext, "imageset", ignoringCase: true) { return "imageset" }
        if RelativePath.equals(ext, "launchimage", ignoringCase: true) { return "launchimage" }
        return nil
    }

    /// Whether the folder `path` is in is an asset set (`assetSetType` of its name is not nil).
    public static func parentIsAssetSet(_ path: String) -> Bool {
        RelativePath.withBytes(of: path) { assetSetType(ofDirectory: RelativePath.name(in: RelativePath.parent(in: $0))) != nil }
    }

    /// Subjects that a path is, given whether it is a directory.
    public static func subjects(for path: String, isDirectory: Bool) -> [Subject] {
        let parent = RelativePath.parent(path)
        if isInsideIconBundle(parent) {
            return iconBundleMember(name: RelativePath.name(path), isDirectory: isDirectory).map { [Subject($0, path)] } ?? []
        }
        let parentIsSet = assetSetType(ofDirectory: RelativePath.name(parent)) != nil
        return subject(path: path, name: RelativePath.name(path), isDirectory: isDirectory, parentIsAssetSet: parentIsSet).map { [$0] }
            ?? []
    }

    /// Whether a folder is an Icon Composer bundle or inside one: what is in it belongs to the
    /// bundle (its layers are no loose icons, launch images or sets of their own).
    public static func isInsideIconBundle(_ directory: String) -> Bool {
        // One pass over the bytes: this runs for every folder of a scan.
        let bytes = directory.utf8
        var start = bytes.startIndex
        var i = start
        while true {
            if i == bytes.endIndex || bytes[i] == UInt8(ascii: "/") {
                if isIconBundleName(directory[start..<i]) { return true }
                if i == bytes.endIndex { return false }
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
    }

    /// `X.icon` (a name with something before the extension).
    package static func isIconBundleName(_ name: Substring) -> Bool {
        name.utf8.count > 5 && RelativePath.hasSuffix(name, ".icon")
    }

    /// What an entry inside an Icon Composer bundle is: a PNG layer, or nothing of its own.
    public static func iconBundleMember(name: String, isDirectory: Bool) -> SubjectKind? {
        !isDirectory && !RelativePath.hasPrefix(name, "._") && RelativePath.hasSuffix(name, ".png", ignoringCase: true) ? .iconLayer : nil
    }

    /// The subject a directory entry is, if any (the fast form used when walking listings).
    public static func subject(path: String, name: String, isDirectory: Bool, parentIsAssetSet: Bool) -> Subject? {
        kind(name: name, isDirectory: isDirectory, parentIsAssetSet: parentIsAssetSet).map { Subject($0, path) }
    }

    /// The kind of subject an entry with this name is, if any (from its name alone). Names are
    /// tested on their bytes (RelativePath+Names.swift); "ignoring case" is ASCII case.
    public static func kind(name: String, isDirectory: Bool, parentIsAssetSet: Bool) -> SubjectKind? {
        if isDirectory {
            if assetSetType(ofDirectory: name) != nil { return .assetSet }
            if isIconBundleName(name[...]) { return .iconComposer }
            if RelativePath.hasSuffix(name, ".xcframework") || RelativePath.hasSuffix(name, ".framework") { return .framework }
            if RelativePath.hasSuffix(name, ".lproj") { return .localization }
            if RelativePath.hasSuffix(name, ".xcassets") { return .catalog }
            if RelativePath.equals(name, "Settings.bundle") { return .settingsBundle }
            return nil
        }
        // AppleDouble files ("._Icon.png") are macOS metadata copied beside real files, not resources.
        if RelativePath.hasPrefix(name, "._") { return nil }
        if isInfoPlist(name) { return .infoPlist }
        if RelativePath.equals(name, "PrivacyInfo.xcprivacy") { return .privacyManifest }
        if isSource(name) { return .source }
        if RelativePath.hasSuffix(name, ".storyboard") || RelativePath.hasSuffix(name, ".xib") { return .interfaceFile }
        let isPNG = RelativePath.hasSuffix(name, ".png", ignoringCase: true)
        if parentIsAssetSet { return isPNG ? .image : nil }
        if RelativePath.equals(name, "itunesartwork", ignoringCase: true)
            || RelativePath.equals(name, "itunesartwork@2x", ignoringCase: true)
        {
            return .image
        }
        guard isPNG else { return nil }
        // Icons by their names' prefixes; launch images may carry a custom base (UILaunchImageFile
        // "Legacy-Default"): any "default".
        if RelativePath.hasPrefix(name, "icon", ignoringCase: true) || RelativePath.hasPrefix(name, "appicon", ignoringCase: true)
            || RelativePath.hasPrefix(name, "itunesartwork", ignoringCase: true)
            || RelativePath.contains("default", in: name[...], ignoringCase: true)
        {
            return .image
        }
        return .loosePNG
    }

    /// Swift, Objective-C(++) and C(++) implementation files.
    public static func isSource(_ name: String) -> Bool {
        RelativePath.withBytes(of: name) { bytes in
            guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return false }
            let ext = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
            return RelativePath.equals(ext, "swift") || RelativePath.equals(ext, "m") || RelativePath.equals(ext, "mm")
                || RelativePath.equals(ext, "c") || RelativePath.equals(ext, "cc") || RelativePath.equals(ext, "cpp")
        }
    }

    public static func isInfoPlist(_ name: String) -> Bool { RelativePath.withBytes(of: name) { isInfoPlist($0) } }

    /// `isInfoPlist(_:)` of a name's bytes.
    public static func isInfoPlist(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        RelativePath.equals(name, "Info.plist") || RelativePath.hasSuffix(name, "-Info.plist")
    }

}
