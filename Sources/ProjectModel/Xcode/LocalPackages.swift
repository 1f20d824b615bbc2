import SystemCalls

/// The Swift packages of the tree a pbxproj target links (issue 58, cause 14): a package's code
/// is compiled into the app's binary, so App Store Connect's required-reason scan (ITMS-91053)
/// sees it as the app's. Xcode 15+ names a local package by an `XCLocalSwiftPackageReference`
/// (`relativePath`, from the project's folder); earlier projects hold the package folder as a
/// file reference (`lastKnownFileType = wrapper`) and name its products without a package, so a
/// product is tied to the folder of the same name.
extension PBXObjectGraph {
    func localPackages(_ target: PlistValue) -> [String] {
        var out: [String] = []
        for id in target["packageProductDependencies"]?.array?.compactMap(\.string) ?? [] {
            guard let dependency = objects[id], dependency["isa"]?.string == "XCSwiftPackageProductDependency" else { continue }
            if let package = dependency["package"]?.string.flatMap({ objects[$0] }) {
                guard package["isa"]?.string == "XCLocalSwiftPackageReference", let relative = package["relativePath"]?.string,
                    !relative.hasPrefix("/"), let folder = RelativePath.normalize(RelativePath.join(directory, relative))
                else { continue }
                out.append(folder)
            } else if let product = dependency["productName"]?.string, let folder = packageFolders[product] {
                out.append(folder)
            }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// Folder name → root-relative path of each package folder the project holds as a file
    /// reference (`lastKnownFileType = wrapper`, the way Xcode before 15 adds a local package).
    var packageFolders: [String: String] {
        var out: [String: String] = [:]
        for (id, object) in objects where object["isa"]?.string == "PBXFileReference" && object["lastKnownFileType"]?.string == "wrapper" {
            guard let path = paths.path(of: id) else { continue }
            out[RelativePath.name(path)] = path
        }
        return out
    }
}
