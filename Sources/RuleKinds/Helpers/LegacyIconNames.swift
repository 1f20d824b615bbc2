import ProjectModel

/// The icon files an Info.plist names the old way (CFBundleIconFile, CFBundleIconFiles,
/// CFBundleIcons' file lists) and how iOS finds them: shared by the legacy icon rules, the stray
/// template rule, the icon key rule and the PNG properties rule.
enum LegacyIconNames {
    /// Icon file names iOS looks up by name (iOS Application Programming Guide, 2010), whatever the Info.plist lists.
    static let fixedNames: Set<String> = [
        "Icon.png", "Icon@2x.png", "Icon-72.png", "Icon-72@2x.png", "Icon-Small.png", "Icon-Small@2x.png", "Icon-Small-50.png",
        "Icon-Small-50@2x.png",
    ]

    /// (key, name) pairs of every icon key, in plist order.
    static func iconNames(_ plist: [String: PlistValue]) -> [(String, String)] {
        var out: [(String, String)] = []
        if let n = plist["CFBundleIconFile"]?.string, !n.isEmpty { out.append(("CFBundleIconFile", n)) }
        for key in ["CFBundleIconFiles", "CFBundleIconFiles~ipad"] {
            for n in plist[key]?.array?.compactMap(\.string) ?? [] { out.append((key, n)) }
        }
        for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
            guard let icons = plist[key] else { continue }
            for n in icons["CFBundlePrimaryIcon"]?["CFBundleIconFiles"]?.array?.compactMap(\.string) ?? [] { out.append((key, n)) }
            // CFBundleIconName is a catalog name (actool resolves it), not a file: not listed here.
            for (_, alt) in icons["CFBundleAlternateIcons"]?.dictionary ?? [:] {
                for n in alt["CFBundleIconFiles"]?.array?.compactMap(\.string) ?? [] { out.append((key + ".CFBundleAlternateIcons", n)) }
            }
        }
        return out
    }

    /// Files a name stands for: with an extension, exactly that file; without, the name and its
    /// @2x/@3x/~iphone/~ipad variants.
    static func resolve(_ name: String, in files: [String: String]) -> [String] {
        if name.lowercased().hasSuffix(".png") { return files[name].map { [$0] } ?? [] }
        var out: [String] = []
        for scale in ["", "@2x", "@3x"] {
            // ~car: CarPlay's variant of an icon (an alternate icon's AltIcon60x60@2x~car.png).
            for device in ["", "~iphone", "~ipad", "~car"] {
                if let p = files["\(name)\(scale)\(device).png"] { out.append(p) }
            }
        }
        return out
    }
}
