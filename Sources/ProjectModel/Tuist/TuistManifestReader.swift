import SwiftParser
import SwiftSyntax
import SystemCalls

/// Turns the literal parts of the `Project(…)` call into the project model.
struct TuistManifestReader {
    let path: String
    let converter: SourceLocationConverter
    /// Top-level `let name = value` of the manifest: a constant used as an argument is its value.
    var bindings: [String: ExprSyntax]
    /// The manifest's own helper functions that return a target (top-level `func`, or `static
    /// func` in an `extension Target`): a call to one is read with its parameters bound.
    let functions: [String: FunctionDeclSyntax]
    /// How many helper calls deep the reader is (a helper calling itself stops).
    var helperDepth = 0
    var notes: [String] = []
    var directory: String { RelativePath.parent(path) }

    init(
        path: String, converter: SourceLocationConverter, bindings: [String: ExprSyntax], functions: [String: FunctionDeclSyntax] = [:]
    ) {
        self.path = path
        self.converter = converter
        self.bindings = bindings
        self.functions = functions
    }

    static func bindings(of source: SourceFileSyntax) -> [String: ExprSyntax] {
        var out: [String: ExprSyntax] = [:]
        for statement in source.statements {
            guard let declaration = statement.item.as(VariableDeclSyntax.self), declaration.bindingSpecifier.text == "let" else { continue }
            for binding in declaration.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value {
                    out[name] = value
                }
            }
        }
        return out
    }

    /// An expression with top-level constants replaced by their values (a few hops, no cycles).
    func resolve(_ node: ExprSyntax) -> ExprSyntax {
        var node = node
        for _ in 0..<8 {
            guard let reference = node.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil,
                let value = bindings[reference.baseName.text]
            else { break }
            node = value
        }
        return node
    }

    /// The call an expression is (after resolving constants).
    func callExpression(_ node: ExprSyntax) -> FunctionCallExprSyntax? { resolve(node).as(FunctionCallExprSyntax.self) }

    func line(_ node: some SyntaxProtocol) -> Int { node.startLocation(converter: converter).line }

    mutating func notRead(_ what: String, _ node: some SyntaxProtocol) {
        if notes.count < 20 { notes.append("\(RelativePath.name(path)):\(line(node)): \(what) is not a literal, not read") }
    }

    func origin(_ node: some SyntaxProtocol, _ detail: String) -> SettingOrigin {
        SettingOrigin(file: path, line: line(node), detail: detail)
    }

    mutating func project(_ call: FunctionCallExprSyntax) -> XcodeProject {
        let arguments = TuistArguments(call)
        let name = arguments["name"].flatMap { string($0) } ?? RelativePath.name(directory)
        let projectSettings = arguments["settings"].map { settings($0, detail: "project settings") } ?? []
        let configurations = ["Debug", "Release"].map {
            XcodeProject.Configuration(name: $0, settings: projectSettings, baseConfiguration: nil, unresolvedBaseConfiguration: nil)
        }
        var targets: [XcodeProject.Target] = []
        if let list = arguments["targets"] {
            if let array = resolve(list).as(ArrayExprSyntax.self) {
                for element in array.elements {
                    // `.target(…)` or `Target(…)`: a helper that makes targets is code, not read.
                    if let call = callExpression(element.expression),
                        member(call.calledExpression) == "target"
                            || call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Target",
                        let target = target(call)
                    {
                        targets.append(target)
                    } else if let call = callExpression(element.expression), let target = helperTarget(call) {
                        targets.append(target)
                    } else {
                        notRead("a target", element)
                        targets.append(Self.unread(element, line: line(element)))
                    }
                }
            } else {
                notRead("targets:", list)
            }
        }
        return XcodeProject(
            directory: directory, path: path, name: name, configurations: configurations, defaultConfigurationName: "Release",
            targets: targets)
    }

    /// `.target(name: …)` or `Target(name: …)`.
    mutating func target(_ call: FunctionCallExprSyntax) -> XcodeProject.Target? {
        let arguments = TuistArguments(call)
        guard let nameNode = arguments["name"] else { return nil }
        guard let name = string(nameNode) else {
            notRead("a target's name", nameNode)
            return nil
        }
        let detail = "target \(name)"
        var settings: [SettingAssignment] = []
        let product = arguments["product"].flatMap(member) ?? ""
        if let p = arguments["product"], product.isEmpty { notRead("\(detail): product:", p) }
        // The platform: from destinations, else the older platform: argument.
        var platform = "iOS"
        var devices: [String] = []
        if let d = arguments["destinations"] {
            if let (p, family) = destinations(d) {
                platform = p
                devices = family
            } else {
                notRead("\(detail): destinations:", d)
            }
        } else if let p = arguments["platform"] {
            if let name = member(p) { platform = name } else { notRead("\(detail): platform:", p) }
            if platform == "iOS" { devices = ["1", "2"] }
        }
        if let sdk = TuistReader.sdks[platform] {
            settings.append(SettingAssignment(key: "SDKROOT", value: sdk, origin: origin(call, "\(detail), Tuist platform \(platform)")))
        }
        if !devices.isEmpty {
            settings.append(
                SettingAssignment(
                    key: "TARGETED_DEVICE_FAMILY", value: devices.joined(separator: ","),
                    origin: origin(arguments["destinations"] ?? ExprSyntax(call), detail)))
        }
        if let d = arguments["deploymentTargets"] ?? arguments["deploymentTarget"] {
            if let (p, version) = deployment(d), let key = TuistReader.deploymentKeys[p] {
                settings.append(SettingAssignment(key: key, value: version, origin: origin(d, detail)))
            } else {
                notRead("\(detail): deployment target", d)
            }
        }
        if let plist = arguments["infoPlist"] { infoPlist(plist, detail: detail, into: &settings) }
        let settingsNode = arguments["settings"]
        let defaults = settingsNode.flatMap { callExpression($0).flatMap { TuistArguments($0)["defaultSettings"] } }
        let recommended = defaults.map { member($0) == "recommended" } ?? true
        if product == "app", platform == "iOS", recommended {
            settings.append(
                SettingAssignment(
                    key: "ASSETCATALOG_COMPILER_APPICON_NAME", value: "AppIcon", origin: origin(call, "Tuist's recommended settings")))
        }
        if let settingsNode { settings += self.settings(settingsNode, detail: detail) }
        let configurations = ["Debug", "Release"].map {
            XcodeProject.Configuration(name: $0, settings: settings, baseConfiguration: nil, unresolvedBaseConfiguration: nil)
        }
        var target = XcodeProject.Target(
            id: name, name: name, productType: TuistReader.productTypes[product] ?? product, configurations: configurations,
            defaultConfigurationName: "Release", icons: IconBundleMembership(target: name))
        if let r = arguments["resources"] { target.resources = resources(r, target: &target, detail: detail) }
        if let s = arguments["sources"] {
            // The folder each source glob starts from (what it compiles is inside it).
            var unused = XcodeProject.Target(
                id: name, name: name, productType: "", configurations: [], defaultConfigurationName: nil,
                icons: IconBundleMembership(target: name))
            target.sources = resources(s, target: &unused, detail: "\(detail): sources")
        }
        return target
    }

    /// (platform, device family) of `.iOS`, `[.iPhone, .iPad]`, `.watchOS` …
    func destinations(_ node: ExprSyntax) -> (String, [String])? {
        let presets: [String: (String, [String])] = [
            "iOS": ("iOS", ["1", "2"]), "iPhone": ("iOS", ["1"]), "iPad": ("iOS", ["2"]), "macOS": ("macOS", []),
            "watchOS": ("watchOS", []), "tvOS": ("tvOS", []), "visionOS": ("visionOS", []), "appleWatch": ("watchOS", []),
            "appleTv": ("tvOS", []), "appleVision": ("visionOS", []), "mac": ("macOS", []), "macCatalyst": ("iOS", []),
            "macWithiPadDesign": ("iOS", []), "appleVisionWithiPadDesign": ("iOS", []),
        ]
        if let name = member(node) { return presets[name] }
        guard let array = resolve(node).as(ArrayExprSyntax.self) else { return nil }
        var platform: String?
        var family = Set<String>()
        for element in array.elements {
            guard let name = member(element.expression), let (p, f) = presets[name] else { return nil }
            // An iOS destination wins (a multiplatform target is judged as its iOS variant).
            if platform == nil || p == "iOS" { platform = p }
            family.formUnion(f)
        }
        return platform.map { ($0, family.sorted()) }
    }

    /// `.iOS("17.0")`, `.iOS(targetVersion: "15.0", devices: …)`, `.multiplatform(iOS: "17.0", …)`.
    func deployment(_ node: ExprSyntax) -> (String, String)? {
        guard let call = callExpression(node), let name = member(call.calledExpression) else { return nil }
        let arguments = TuistArguments(call)
        if name == "multiplatform" {
            for platform in ["iOS", "watchOS", "tvOS", "macOS", "visionOS"] {
                if let v = arguments[platform].flatMap({ string($0) }) { return (platform, v) }
            }
            return nil
        }
        guard TuistReader.sdks[name] != nil, let version = (arguments[nil] ?? arguments["targetVersion"]).flatMap({ string($0) }) else {
            return nil
        }
        return (name, version)
    }

    /// `"App/Info.plist"`, `.file(path: "…")`: a file; `.default`, `.extendingDefault(with: …)`:
    /// generated by Tuist (its keys are not read).
    mutating func infoPlist(_ node: ExprSyntax, detail: String, into settings: inout [SettingAssignment]) {
        if let file = string(node)
            ?? callExpression(node).flatMap({ member($0.calledExpression) == "file" ? TuistArguments($0)["path"] : nil })
            .flatMap({ string($0) })
        {
            settings.append(SettingAssignment(key: "INFOPLIST_FILE", value: file, origin: origin(node, detail)))
            return
        }
        let name = member(node) ?? callExpression(node).flatMap { member($0.calledExpression) }
        if name == "default" || name == "extendingDefault" {
            settings.append(
                SettingAssignment(key: "GENERATE_INFOPLIST_FILE", value: "YES", origin: origin(node, "\(detail), Tuist generates it")))
            notes.append(
                "\(RelativePath.name(path)):\(line(node)): \(detail): Info.plist generated by Tuist (.\(name!)); its keys are not read")
        } else {
            notRead("\(detail): infoPlist:", node)
        }
    }

    /// `.settings(base: ["KEY": "value"], …)`: the literal base settings.
    mutating func settings(_ node: ExprSyntax, detail: String) -> [SettingAssignment] {
        guard let call = callExpression(node), member(call.calledExpression) == "settings" else {
            notRead("\(detail): settings:", node)
            return []
        }
        guard let base = TuistArguments(call)["base"] else { return [] }
        guard let dictionary = resolve(base).as(DictionaryExprSyntax.self) else {
            notRead("\(detail): settings base:", base)
            return []
        }
        guard case .elements(let elements) = dictionary.content else { return [] }
        var out: [SettingAssignment] = []
        for element in elements {
            guard let key = string(element.key) else {
                notRead("\(detail): a setting's name", element.key)
                continue
            }
            let value =
                string(element.value)
                ?? callExpression(element.value).flatMap { member($0.calledExpression) == "string" ? TuistArguments($0)[nil] : nil }.flatMap
            {
                string($0)
            }
            guard let value else {
                notRead("\(detail): \(key)", element.value)
                continue
            }
            out.append(SettingAssignment(key: key, value: value, origin: origin(element, detail)))
        }
        return out
    }

    /// Resource globs ("Resources/**", `.glob(pattern:)`, `.folderReference(path:)`): the folder
    /// each starts from is the target's, and a `.icon` named outright is a reference of its own.
    mutating func resources(_ node: ExprSyntax, target: inout XcodeProject.Target, detail: String) -> [String] {
        // An array, `.resources([…])`/`.paths([…])`, or one glob (a string or `.glob(…)`).
        let elements: [ExprSyntax]
        if let array = resolve(node).as(ArrayExprSyntax.self)
            ?? callExpression(node).flatMap({ TuistArguments($0)[nil].map(resolve)?.as(ArrayExprSyntax.self) })
        {
            elements = array.elements.map(\.expression)
        } else if pattern(node) != nil {
            elements = [node]
        } else {
            notRead("\(detail): resources:", node)
            return []
        }
        var out: [String] = []
        for expression in elements {
            let pattern = pattern(expression)
            guard let pattern else {
                notRead("\(detail): a resource", expression)
                continue
            }
            let fixed = pattern.split(separator: "/", omittingEmptySubsequences: true).prefix { !$0.contains("*") && !$0.contains("{") }
                .joined(separator: "/")
            guard let folder = RelativePath.normalize(RelativePath.join(directory, fixed)) else { continue }
            out.append(folder)
            if folder.hasSuffix(".icon") {
                target.icons.references.append(IconBundleMembership.Reference(path: folder, fileType: IconBundleMembership.fileType))
            } else {
                target.icons.folders.append(
                    IconBundleMembership.Folder(path: folder, how: "Tuist resources \(pattern) of target \(target.name)"))
            }
        }
        return out
    }

    /// A glob or path: a string, `.glob(pattern:)`, `.glob("…", excluding:)`, `.folderReference(path:)`,
    /// `.relativeToManifest("…")` (the manifest's folder is where every path starts).
    func pattern(_ expression: ExprSyntax) -> String? {
        if let s = string(expression) { return s }
        guard let c = callExpression(expression) else { return nil }
        let arguments = TuistArguments(c)
        guard let inner = arguments["pattern"] ?? arguments["path"] ?? arguments[nil] else { return nil }
        if let s = string(inner) { return s }
        if let call = callExpression(inner), member(call.calledExpression) == "relativeToManifest",
            let s = TuistArguments(call)[nil].flatMap({ string($0) })
        {
            return s
        }
        return nil
    }

    /// The text of a string literal; an interpolation is read when it names a constant or a
    /// helper's parameter that is itself a string literal (`"\(name)/Sources/**"`).
    func string(_ node: ExprSyntax, depth: Int = 0) -> String? {
        guard depth < 8, let literal = resolve(node).as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            if let s = segment.as(StringSegmentSyntax.self) {
                text += s.content.text
            } else if let e = segment.as(ExpressionSegmentSyntax.self), e.expressions.count == 1,
                let first = e.expressions.first, first.label == nil,
                first.expression.is(DeclReferenceExprSyntax.self),
                let value = string(first.expression, depth: depth + 1)
            {
                text += value
            } else {
                return nil
            }
        }
        return text
    }

    /// `.name`, or `Type.name` on a ProjectDescription type (`Target.target`, `Product.app`,
    /// `DeploymentTargets.iOS`) → "name".
    func member(_ node: ExprSyntax) -> String? {
        guard let access = resolve(node).as(MemberAccessExprSyntax.self) else { return nil }
        if let base = access.base {
            guard let type = base.as(DeclReferenceExprSyntax.self)?.baseName.text, type.first?.isUppercase == true else { return nil }
        }
        return access.declName.baseName.text
    }
}

/// A call's arguments by label (nil: the unlabelled first one).
struct TuistArguments {
    let list: LabeledExprListSyntax

    init(_ call: FunctionCallExprSyntax) { list = call.arguments }

    subscript(_ label: String?) -> ExprSyntax? { list.first { $0.label?.text == label }?.expression }

}
