import RuleEngine
import SystemCalls

/// What an image path is used for, from its location and name.
enum ImageRole {
    enum Role { case appIcon, launchImage, other }

    static func role(of path: String) -> Role {
        if isAppIcon(path) { return .appIcon }
        let parentType = SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(RelativePath.parent(path)))
        if parentType == "launchimage" { return .launchImage }
        if parentType == nil, RelativePath.name(path).lowercased().hasPrefix("default") { return .launchImage }
        return .other
    }

    /// In an `.appiconset`, or a loose file named like an app icon (Icon*.png, AppIcon*.png, iTunesArtwork).
    static func isAppIcon(_ path: String) -> Bool {
        // Slices, not copies: this runs for every image.
        if let type = SubjectClassifier.assetSetType(ofDirectory: RelativePath.nameSlice(RelativePath.parentSlice(path))) {
            return type == "appiconset"
        }
        let name = RelativePath.nameSlice(path)
        return RelativePath.hasPrefix(name, "icon", ignoringCase: true) || RelativePath.hasPrefix(name, "appicon", ignoringCase: true)
            || RelativePath.hasPrefix(name, "itunesartwork", ignoringCase: true)
    }
}
