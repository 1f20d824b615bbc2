import SystemCalls

/// The parts of an Xcode project (`project.pbxproj`) reswatch needs to resolve build settings as
/// xcodebuild does: targets with their product types, build configurations with their settings
/// and base `.xcconfig` files, and the project-level configurations.
public struct XcodeProject: Sendable, Hashable {
    public struct Configuration: Sendable, Hashable {
        public let name: String
        /// The configuration's own build settings, in the pbxproj.
        public let settings: [SettingAssignment]
        /// The base `.xcconfig` (root-relative), when it is a file inside the checked tree.
        public let baseConfiguration: String?
        /// A base configuration that could not be located (outside the tree, unknown anchor).
        public let unresolvedBaseConfiguration: String?
    }

    public struct Target: Sendable, Hashable {
        public let id: String
        public let name: String
        public let productType: String
        public let configurations: [Configuration]
        public let defaultConfigurationName: String?
        /// What the target bundles, root-relative: the files and folders of its Copy Bundle
        /// Resources phase and its synchronized folders (Xcode 16). A path inside one of them is
        /// the target's resource, whichever folder it sits in.
        public var resources: [String] = []
        /// The Icon Composer bundles the target compiles (or bundles otherwise).
        public var icons: IconBundleMembership
        /// What the target compiles, root-relative: the files of its Compile Sources phase and
        /// its synchronized folders (or XcodeGen / Tuist source folders).
        public var sources: [String] = []
        /// A PBXAggregateTarget: it runs scripts and builds other targets, no product of its own.
        public var isAggregate = false
        /// The Swift packages of the tree the target links (root-relative folders holding a
        /// Package.swift): their code is compiled into the target's binary.
        public var localPackages: [String] = []
        /// The names of the targets whose products it copies into its own (Embed App Extensions,
        /// Embed Watch Content, Embed App Clips …): what its bundle ships. Nil when the project's
        /// description does not say (then which app embeds an extension is not known).
        public var embeds: [String]?

        public func configuration(named name: String) -> Configuration? { configurations.first { $0.name == name } }
    }

    /// The target that embeds `name`'s product, when the project says (`Target.embeds`).
    public func embedder(of name: String) -> Target? {
        targets.first { $0.embeds?.contains(name) == true }
    }

    /// Root-relative directory holding the `.xcodeproj`.
    public let directory: String
    /// Root-relative path of the `.xcodeproj` folder.
    public let path: String
    public let name: String
    public let configurations: [Configuration]
    public let defaultConfigurationName: String?
    public let targets: [Target]

    public func configuration(named name: String) -> Configuration? { configurations.first { $0.name == name } }
}

public enum XcodeProjectReader {
    /// Reads `<path>/project.pbxproj` (`path` is the root-relative `.xcodeproj`).
    public static func read(_ xcodeproj: String, files: some ProjectFileAccess) -> Result<XcodeProject, PlistError> {
        let pbxproj = RelativePath.join(xcodeproj, "project.pbxproj")
        let bytes: [UInt8]
        switch files.read(pbxproj) {
        case .failure(let e): return .failure(.unreadable(e))
        case .success(let b): bytes = b
        }
        switch PropertyListReader.parse(bytes) {
        case .failure(let e): return .failure(e)
        case .success(let (plist, _)): return .success(model(plist, xcodeproj: xcodeproj, pbxproj: pbxproj))
        }
    }

    static func model(_ plist: PlistValue, xcodeproj: String, pbxproj: String) -> XcodeProject {
        let objects = plist["objects"]?.dictionary ?? [:]
        let directory = RelativePath.parent(xcodeproj)
        let graph = PBXObjectGraph(
            objects: objects, directory: directory, pbxproj: pbxproj,
            paths: FileReferencePaths(objects: objects, projectDirectory: directory, rootID: plist["rootObject"]?.string))
        let root = plist["rootObject"]?.string.flatMap { objects[$0] }
        let (projectConfigs, projectDefault) = graph.configurations(root?["buildConfigurationList"]?.string, owner: "project")
        var targets = (root?["targets"]?.array?.compactMap(\.string) ?? []).compactMap(graph.target)
        graph.noteEmbedding(&targets)
        return XcodeProject(
            directory: directory, path: xcodeproj, name: String(RelativePath.name(xcodeproj).dropLast(".xcodeproj".count)),
            configurations: projectConfigs, defaultConfigurationName: projectDefault, targets: targets)
    }
}

/// The objects of a project.pbxproj, read into configurations and targets.
struct PBXObjectGraph {
    let objects: [String: PlistValue]
    let directory: String
    let pbxproj: String
    let paths: FileReferencePaths

    /// A configuration list's configurations and its default configuration's name.
    func configurations(_ listID: String?, owner: String) -> ([XcodeProject.Configuration], String?) {
        guard let listID, let list = objects[listID] else { return ([], nil) }
        let ids = list["buildConfigurations"]?.array?.compactMap(\.string) ?? []
        return (ids.compactMap { configuration($0, owner: owner) }, list["defaultConfigurationName"]?.string)
    }

    func configuration(_ id: String, owner: String) -> XcodeProject.Configuration? {
        guard let c = objects[id]?.dictionary, let configName = c["name"]?.string else { return nil }
        let settings = (c["buildSettings"]?.dictionary ?? [:]).sorted { $0.key < $1.key }.compactMap { key, value -> SettingAssignment? in
            let text = value.text ?? value.array?.compactMap(\.text).joined(separator: " ")
            guard let text else { return nil }
            var bare = key
            var conditions: [String: String] = [:]
            if let open = key.firstIndex(of: "["), key.hasSuffix("]") {
                bare = String(key[..<open])
                for part in key[key.index(after: open)..<key.index(before: key.endIndex)].split(separator: "][") {
                    let kv = part.split(separator: "=", maxSplits: 1)
                    if kv.count == 2 { conditions[String(kv[0])] = String(kv[1]) }
                }
            }
            return SettingAssignment(
                key: bare, conditions: conditions, value: text,
                origin: SettingOrigin(file: pbxproj, detail: "\(owner), \(configName)", anchor: id))
        }
        let (base, unresolved) = baseConfiguration(c)
        return XcodeProject.Configuration(
            name: configName, settings: settings, baseConfiguration: base, unresolvedBaseConfiguration: unresolved)
    }

    /// The configuration's .xcconfig, or how the reference reads when it cannot be resolved.
    func baseConfiguration(_ c: [String: PlistValue]) -> (path: String?, unresolved: String?) {
        if let ref = c["baseConfigurationReference"]?.string {
            let base = paths.path(of: ref)
            return (base, base == nil ? paths.describe(ref) : nil)
        }
        if let anchor = c["baseConfigurationReferenceAnchor"]?.string, let relative = c["baseConfigurationReferenceRelativePath"]?.string {
            // Xcode 16: a file inside a synchronized folder.
            let base = paths.path(of: anchor).flatMap { RelativePath.normalize(RelativePath.join($0, relative)) }
            return (base, base == nil ? relative : nil)
        }
        if let relative = c["baseConfigurationReferenceRelativePath"]?.string {
            // Without an anchor: relative to the project directory.
            let base = relative.hasPrefix("/") ? nil : RelativePath.normalize(RelativePath.join(directory, relative))
            return (base, base == nil ? relative : nil)
        }
        return (nil, nil)
    }

    /// A native or aggregate target: its configurations, resources, sources and icons.
    func target(_ id: String) -> XcodeProject.Target? {
        guard let t = objects[id], t["isa"]?.string == "PBXNativeTarget" || t["isa"]?.string == "PBXAggregateTarget" else { return nil }
        let targetName = t["name"]?.string ?? id
        let (configs, def) = configurations(t["buildConfigurationList"]?.string, owner: "target \(targetName)")
        var target = XcodeProject.Target(
            id: id, name: targetName, productType: t["productType"]?.string ?? "", configurations: configs,
            defaultConfigurationName: def, icons: IconBundleMembership(target: targetName))
        target.isAggregate = t["isa"]?.string == "PBXAggregateTarget"
        var resources = bundledResources(t, into: &target)
        for phase in phases(of: t, "PBXSourcesBuildPhase") {
            for file in objects[phase]?["files"]?.array?.compactMap(\.string) ?? [] {
                if let ref = objects[file]?["fileRef"]?.string, let p = paths.path(of: ref) { target.sources.append(p) }
            }
        }
        for group in t["fileSystemSynchronizedGroups"]?.array?.compactMap(\.string) ?? [] {
            guard let p = paths.path(of: group) else { continue }
            resources.append(p)
            target.sources.append(p)
            target.icons.folders.append(
                XcodeProjectReader.synchronizedFolder(objects[group], path: p, target: id, targetName: targetName, objects: objects))
        }
        target.resources = resources
        target.localPackages = localPackages(t)
        return target
    }

    /// Each target's `embeds`: the products its Copy Files phases copy, by the target that makes
    /// each (its `productReference`). A target with no such phase embeds nothing.
    func noteEmbedding(_ targets: inout [XcodeProject.Target]) {
        var maker: [String: String] = [:]
        for target in targets {
            if let product = objects[target.id]?["productReference"]?.string { maker[product] = target.name }
        }
        for i in targets.indices {
            guard let t = objects[targets[i].id] else { continue }
            var embedded: [String] = []
            for phase in phases(of: t, "PBXCopyFilesBuildPhase") {
                for file in objects[phase]?["files"]?.array?.compactMap(\.string) ?? [] {
                    if let ref = objects[file]?["fileRef"]?.string, let name = maker[ref], name != targets[i].name { embedded.append(name) }
                }
            }
            targets[i].embeds = embedded
        }
    }

    func phases(of target: PlistValue, _ isa: String) -> [String] {
        (target["buildPhases"]?.array?.compactMap(\.string) ?? []).filter { objects[$0]?["isa"]?.string == isa }
    }

    /// What the Copy Bundle Resources phase bundles (each variant of a localized resource), noting
    /// icons on the way.
    func bundledResources(_ t: PlistValue, into target: inout XcodeProject.Target) -> [String] {
        var resources: [String] = []
        for phase in phases(of: t, "PBXResourcesBuildPhase") {
            for file in objects[phase]?["files"]?.array?.compactMap(\.string) ?? [] {
                guard let ref = objects[file]?["fileRef"]?.string else { continue }
                if objects[ref]?["isa"]?.string == "PBXVariantGroup" {
                    // A localized resource: each .lproj variant is bundled.
                    for child in objects[ref]?["children"]?.array?.compactMap(\.string) ?? [] {
                        if let p = paths.path(of: child) { resources.append(p) }
                    }
                } else if let p = paths.path(of: ref) {
                    resources.append(p)
                    target.icons.note(
                        resource: p, fileType: objects[ref]?["explicitFileType"]?.string ?? objects[ref]?["lastKnownFileType"]?.string)
                }
            }
        }
        return resources
    }
}

extension XcodeProjectReader {
    /// A synchronized folder (Xcode 16+) as the target takes it: its membership exceptions for
    /// this target leave paths out, and `explicitFolders` / `explicitFileTypes` type paths otherwise.
    static func synchronizedFolder(
        _ group: PlistValue?, path: String, target: String, targetName: String, objects: [String: PlistValue]
    ) -> IconBundleMembership.Folder {
        func inside(_ relative: String) -> String? {
            relative.hasPrefix("/") ? nil : RelativePath.normalize(RelativePath.join(path, relative))
        }
        var folder = IconBundleMembership.Folder(
            path: path, how: "the synchronized folder \(path.isEmpty ? "." : path) of target \(targetName)")
        for id in group?["exceptions"]?.array?.compactMap(\.string) ?? [] {
            guard let exception = objects[id], exception["target"]?.string == target else { continue }
            folder.excluded += (exception["membershipExceptions"]?.array?.compactMap(\.string) ?? []).compactMap(inside)
        }
        for relative in group?["explicitFolders"]?.array?.compactMap(\.string) ?? [] {
            if let p = inside(relative) {
                folder.typedOtherwise[p] = "a plain folder (explicitFolders in project.pbxproj: remove it there)"
            }
        }
        for (relative, type) in group?["explicitFileTypes"]?.dictionary ?? [:] {
            if let p = inside(relative), let type = type.string, type != IconBundleMembership.fileType {
                folder.typedOtherwise[p] = "'\(type)' (explicitFileTypes in project.pbxproj: make it \(IconBundleMembership.fileType))"
            }
        }
        return folder
    }
}

extension IconBundleMembership {
    /// Notes a Resources-phase entry: a `.icon` itself, or a file inside one (the bundle expanded).
    mutating func note(resource path: String, fileType: String?) {
        if path.hasSuffix(".icon") {
            references.append(Reference(path: path, fileType: fileType))
        } else if let bundle = Self.enclosingBundle(of: path), !references.contains(where: { $0.path == bundle }) {
            references.append(Reference(path: bundle, fileType: nil, expanded: true))
        }
    }

    /// The `.icon` folder a path is inside, if any ("A/AppIcon.icon/Assets/x.svg" → "A/AppIcon.icon").
    public static func enclosingBundle(of path: String) -> String? {
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            let component = path[..<slash]
            if component.hasSuffix(".icon"), !component.hasSuffix("/.icon") { return String(component) }
            end = slash
        }
        return nil
    }
}

/// Paths of file references and groups, following the group tree (`sourceTree = "<group>"`).
struct FileReferencePaths {
    let objects: [String: PlistValue]
    let projectDirectory: String
    var parent: [String: String] = [:]
    let projectDirPath: String
    /// Paths of groups already found (a large project's thousands of files share a few hundred
    /// groups: each file's path walked and normalized every group above it, issue 63).
    private let groupPaths = GroupPaths()

    final class GroupPaths {
        var paths: [String: String] = [:]
    }

    init(objects: [String: PlistValue], projectDirectory: String, rootID: String?) {
        self.objects = objects
        self.projectDirectory = projectDirectory
        for (id, object) in objects {
            for child in object["children"]?.array?.compactMap(\.string) ?? [] { parent[child] = id }
        }
        projectDirPath = rootID.flatMap { objects[$0]?["projectDirPath"]?.string } ?? ""
    }

    /// Root-relative path of a file or group; nil when it is not inside the checked tree.
    func path(of id: String, depth: Int = 0) -> String? {
        guard depth < 64, let object = objects[id] else { return nil }
        let own = object["path"]?.string ?? ""
        let base: String?
        switch object["sourceTree"]?.string ?? "<group>" {
        case "SOURCE_ROOT":
            base = RelativePath.join(projectDirectory, projectDirPath)
        case "<group>":
            if let p = parent[id] {
                // A group's path is asked for by each file in it: found once (only paths found are
                // kept: a nil may come of the depth limit).
                if let known = groupPaths.paths[p] {
                    base = known
                } else {
                    base = path(of: p, depth: depth + 1)
                    if let base { groupPaths.paths[p] = base }
                }
            } else {
                base = RelativePath.join(projectDirectory, projectDirPath)  // the main group
            }
        default:
            base = nil  // <absolute>, SDKROOT, BUILT_PRODUCTS_DIR, DEVELOPER_DIR: not in the project's tree
        }
        guard let base, !own.hasPrefix("/") else { return nil }
        return RelativePath.normalize(RelativePath.join(base, own))
    }

    func describe(_ id: String) -> String {
        let object = objects[id]
        return object?["path"]?.string ?? object?["name"]?.string ?? id
    }
}
