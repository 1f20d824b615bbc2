import RuleKit
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
        // On the path's bytes, no copies: this runs for every image.
        RelativePath.withBytes(of: path) { bytes in
            if let type = SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(in: RelativePath.parent(in: bytes))) {
                return type == "appiconset"
            }
            let name = RelativePath.name(in: bytes)
            return RelativePath.hasPrefix(name, "icon", ignoringCase: true) || RelativePath.hasPrefix(name, "appicon", ignoringCase: true)
                || RelativePath.hasPrefix(name, "itunesartwork", ignoringCase: true)
        }
    }
}
