import Foundation

/// An Icon Composer document (`X.icon/icon.json`, Xcode 26) as far as reswatch judges it: the
/// layers' asset names, and what departs from the shape every known tool and real file agree on.
///
/// Apple publishes no schema. The shape here is the consensus of the two reverse-engineered ones
/// (dfabulich/unofficial-apple-icon-composer-json-schema, giginet/apple-icon-composer-skill) and
/// of real bundles (Dimillian/IceCubesApp, e-marchand/TestAppIcon, Awful/Awful.app); where they
/// disagree, the wider one is taken (`blur-material: null` is real). Departures are therefore
/// `schema` notes (warnings), never errors; only a missing or unparsable document, or one without
/// `groups`, is structural. Sources: Icon Composer (docs/sources.md) and real `.icon` bundles (IceCubesApp, Awful.app).
public struct IconComposerDocument: Sendable {
    /// A layer's asset, and the key path it was named at ("groups[0].layers[1].image-name").
    public struct AssetName: Sendable, Hashable {
        public let name: String
        public let keyPath: String
    }

    /// A departure from the known shape: where, and what.
    public struct Note: Sendable, Hashable {
        public let keyPath: String
        public let message: String
    }

    /// Why the document could not be taken at all.
    public enum Failure: Error, Sendable, Hashable {
        case notJSON(String)
        case notAnObject
        case noGroups
        case groupsNotAnArray
    }

    public var assetNames: [AssetName] = []
    public var notes: [Note] = []
    public var groupCount = 0

    /// Apple: "a maximum of four groups" (Creating your app icon using Icon Composer).
    public static let maximumGroups = 4

    public static func parse(_ bytes: [UInt8]) -> Result<IconComposerDocument, Failure> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return .failure(.notJSON(text ?? "not valid JSON"))
        }
        guard let root = object as? [String: Any] else { return .failure(.notAnObject) }
        guard let groupsValue = root["groups"] else { return .failure(.noGroups) }
        guard let groups = groupsValue as? [Any] else { return .failure(.groupsNotAnArray) }
        var document = IconComposerDocument()
        document.groupCount = groups.count
        var checker = ShapeChecker()
        checker.root(root)
        document.notes = checker.notes
        document.assetNames = checker.assets
        if groups.count > maximumGroups {
            document.notes.insert(
                Note(keyPath: "groups", message: "\(groups.count) groups; Icon Composer organises layers into at most \(maximumGroups)"),
                at: 0)
        }
        return .success(document)
    }
}

/// Walks the document, noting departures from the known shape and collecting asset names.
private struct ShapeChecker {
    var notes: [IconComposerDocument.Note] = []
    var assets: [IconComposerDocument.AssetName] = []

    static let rootKeys: Set<String> = ["groups", "supported-platforms", "fill", "color-space-for-untagged-svg-colors"]
    static let groupKeys: Set<String> = [
        "layers", "name", "hidden", "opacity", "blend-mode", "lighting", "specular", "blur-material", "shadow", "translucency",
        "position",
    ]
    static let layerKeys: Set<String> = ["name", "image-name", "fill", "opacity", "blend-mode", "glass", "hidden", "position"]
    static let blendModes: Set<String> = [
        "normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn", "soft-light", "hard-light",
        "difference", "exclusion", "plus-darker", "plus-lighter",
    ]
    static let appearances: Set<String> = ["dark", "tinted", "light", "base"]
    static let idioms: Set<String> = ["square", "watchOS", "iOS", "macOS"]
    static let fillKeywords: Set<String> = ["automatic", "none", "system-light", "system-dark"]
    static let colorSpaces: [String: Int] = ["srgb": 4, "extended-srgb": 4, "display-p3": 4, "gray": 2, "extended-gray": 2]

    mutating func note(_ path: String, _ message: String) {
        // A hostile document may hold a million departures: the first few say enough.
        if notes.count < 50 { notes.append(.init(keyPath: path, message: message)) }
    }

    mutating func root(_ root: [String: Any]) {
        for key in root.keys.sorted() where !known(key, in: Self.rootKeys) { note(key, "unknown key '\(key)'") }
        if let platforms = root["supported-platforms"] {
            supportedPlatforms(platforms)
        } else {
            note(
                "supported-platforms",
                "no 'supported-platforms' (Icon Composer writes {\"squares\": \"shared\", \"circles\": [\"watchOS\"]})")
        }
        specialized(root, "fill", at: "") { this, value, path in this.fill(value, at: path) }
        if let space = root["color-space-for-untagged-svg-colors"],
            !["display-p3", "srgb", "extended-gray"].contains(space as? String ?? "")
        {
            note("color-space-for-untagged-svg-colors", "expected \"display-p3\" or \"srgb\", found \(describe(space))")
        }
        for (i, group) in ((root["groups"] as? [Any]) ?? []).enumerated() { self.group(group, at: "groups[\(i)]") }
    }

    mutating func supportedPlatforms(_ value: Any) {
        guard let map = value as? [String: Any] else {
            note("supported-platforms", "expected an object, found \(describe(value))")
            return
        }
        for key in map.keys.sorted() where key != "squares" && key != "circles" {
            note("supported-platforms.\(key)", "unknown key '\(key)'")
        }
        if let squares = map["squares"], !(squares as? String == "shared" || isStringArray(squares)) {
            note("supported-platforms.squares", "expected \"shared\" or a list of platforms, found \(describe(squares))")
        }
        if let circles = map["circles"], !isStringArray(circles) {
            note("supported-platforms.circles", "expected a list of platforms, found \(describe(circles))")
        }
    }

    mutating func group(_ value: Any, at path: String) {
        guard let group = value as? [String: Any] else {
            note(path, "a group must be an object, found \(describe(value))")
            return
        }
        for key in group.keys.sorted() where !known(key, in: Self.groupKeys) { note("\(path).\(key)", "unknown key '\(key)'") }
        common(group, at: path)
        specialized(group, "lighting", at: path) { this, v, p in this.oneOf(v, ["individual", "combined"], at: p) }
        specialized(group, "specular", at: path) { this, v, p in this.bool(v, at: p) }
        specialized(group, "blur-material", at: path) { this, v, p in if !(v is NSNull) { this.unit(v, at: p) } }
        specialized(group, "shadow", at: path) { this, v, p in this.shadow(v, at: p) }
        specialized(group, "translucency", at: path) { this, v, p in this.translucency(v, at: p) }
        guard let layers = group["layers"] else {
            note("\(path).layers", "a group without 'layers'")
            return
        }
        guard let list = layers as? [Any] else {
            note("\(path).layers", "expected a list of layers, found \(describe(layers))")
            return
        }
        for (i, layer) in list.enumerated() { self.layer(layer, at: "\(path).layers[\(i)]") }
    }

    mutating func layer(_ value: Any, at path: String) {
        guard let layer = value as? [String: Any] else {
            note(path, "a layer must be an object, found \(describe(value))")
            return
        }
        for key in layer.keys.sorted() where !known(key, in: Self.layerKeys) { note("\(path).\(key)", "unknown key '\(key)'") }
        common(layer, at: path)
        specialized(layer, "glass", at: path) { this, v, p in this.bool(v, at: p) }
        specialized(layer, "fill", at: path) { this, v, p in this.fill(v, at: p) }
        var named = false
        specialized(layer, "image-name", at: path) { this, v, p in
            guard let name = v as? String else { return this.note(p, "expected a file name, found \(this.describe(v))") }
            named = true
            this.assets.append(.init(name: name, keyPath: p))
        }
        if !named, layer["image-name"] == nil, layer["image-name-specializations"] == nil {
            note(path, "a layer without 'image-name'")
        }
    }

    /// Keys groups and layers share.
    mutating func common(_ object: [String: Any], at path: String) {
        if let name = object["name"], !(name is String) { note("\(path).name", "expected a string, found \(describe(name))") }
        specialized(object, "hidden", at: path) { this, v, p in this.bool(v, at: p) }
        specialized(object, "opacity", at: path) { this, v, p in this.unit(v, at: p) }
        specialized(object, "blend-mode", at: path) { this, v, p in this.oneOf(v, Self.blendModes, at: p) }
        specialized(object, "position", at: path) { this, v, p in this.position(v, at: p) }
    }

    /// A property and its `-specializations` list ({value, appearance?, idiom?} entries).
    mutating func specialized(_ object: [String: Any], _ key: String, at path: String, _ check: (inout ShapeChecker, Any, String) -> Void) {
        let prefix = path.isEmpty ? "" : path + "."
        if let value = object[key] { check(&self, value, prefix + key) }
        guard let list = object[key + "-specializations"] else { return }
        let listPath = prefix + key + "-specializations"
        guard let entries = list as? [Any] else { return note(listPath, "expected a list, found \(describe(list))") }
        for (i, entry) in entries.enumerated() {
            let at = "\(listPath)[\(i)]"
            guard let e = entry as? [String: Any] else {
                note(at, "expected an object with 'value', found \(describe(entry))")
                continue
            }
            for k in e.keys.sorted() where !["value", "appearance", "idiom"].contains(k) { note("\(at).\(k)", "unknown key '\(k)'") }
            if let a = e["appearance"], !Self.appearances.contains(a as? String ?? "") {
                note("\(at).appearance", "unknown appearance \(describe(a))")
            }
            if let d = e["idiom"], !Self.idioms.contains(d as? String ?? "") { note("\(at).idiom", "unknown idiom \(describe(d))") }
            guard let value = e["value"] else {
                note(at, "a specialization without 'value'")
                continue
            }
            check(&self, value, "\(at).value")
        }
    }

    func known(_ key: String, in keys: Set<String>) -> Bool {
        keys.contains(key) || (key.hasSuffix("-specializations") && keys.contains(String(key.dropLast("-specializations".count))))
    }

    mutating func fill(_ value: Any, at path: String) {
        if let keyword = value as? String {
            if !Self.fillKeywords.contains(keyword) { note(path, "unknown fill \(describe(value))") }
            return
        }
        guard let map = value as? [String: Any] else { return note(path, "expected a fill keyword or object, found \(describe(value))") }
        let kinds = map.keys.filter { ["solid", "automatic-gradient", "linear-gradient"].contains($0) }
        if kinds.count != 1 { note(path, "a fill object names exactly one of solid, automatic-gradient, linear-gradient") }
        for key in map.keys.sorted() where !["solid", "automatic-gradient", "linear-gradient", "orientation"].contains(key) {
            note("\(path).\(key)", "unknown key '\(key)'")
        }
        if let c = map["solid"] { color(c, at: "\(path).solid") }
        if let c = map["automatic-gradient"] { color(c, at: "\(path).automatic-gradient") }
        if let g = map["linear-gradient"] {
            if let colors = g as? [Any], colors.count == 2 {
                for (i, c) in colors.enumerated() { color(c, at: "\(path).linear-gradient[\(i)]") }
            } else {
                note("\(path).linear-gradient", "expected two colours, found \(describe(g))")
            }
        }
    }

    /// "srgb:1.0,0.5,0.0,1.0", "display-p3:…", "gray:0.5,1.0", "named:system-…".
    mutating func color(_ value: Any, at path: String) {
        guard let text = value as? String, let colon = text.firstIndex(of: ":") else {
            return note(path, "expected a colour such as \"srgb:1,1,1,1\", found \(describe(value))")
        }
        let space = String(text[..<colon])
        if space == "named" { return }
        guard let count = Self.colorSpaces[space] else { return note(path, "unknown colour space '\(space)' in \(describe(value))") }
        let parts = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter(\.isFinite)
        if parts.count != count || numbers.count != count {
            note(path, "\(describe(value)) is not \(count) numbers after '\(space):'")
        }
    }

    mutating func shadow(_ value: Any, at path: String) {
        guard let map = value as? [String: Any] else { return note(path, "expected an object {kind, opacity}, found \(describe(value))") }
        if let kind = map["kind"] { oneOf(kind, ["neutral", "layer-color", "none", "automatic"], at: "\(path).kind") }
        if let opacity = map["opacity"] { unit(opacity, at: "\(path).opacity") }
        for key in map.keys.sorted() where key != "kind" && key != "opacity" { note("\(path).\(key)", "unknown key '\(key)'") }
    }

    mutating func translucency(_ value: Any, at path: String) {
        guard let map = value as? [String: Any] else { return note(path, "expected an object {enabled, value}, found \(describe(value))") }
        if let enabled = map["enabled"] { bool(enabled, at: "\(path).enabled") }
        if let v = map["value"] { unit(v, at: "\(path).value") }
        for key in map.keys.sorted() where key != "enabled" && key != "value" { note("\(path).\(key)", "unknown key '\(key)'") }
    }

    mutating func position(_ value: Any, at path: String) {
        guard let map = value as? [String: Any] else {
            return note(path, "expected an object {scale, translation-in-points}, found \(describe(value))")
        }
        if let scale = map["scale"], number(scale) == nil { note("\(path).scale", "expected a number, found \(describe(scale))") }
        if let t = map["translation-in-points"] {
            let pair = (t as? [Any]).map { $0.compactMap(number) } ?? []
            if pair.count != 2 || (t as? [Any])?.count != 2 {
                note("\(path).translation-in-points", "expected two numbers [x, y], found \(describe(t))")
            }
        }
        for key in map.keys.sorted() where key != "scale" && key != "translation-in-points" {
            note("\(path).\(key)", "unknown key '\(key)'")
        }
    }

    mutating func bool(_ value: Any, at path: String) {
        if !isBool(value) { note(path, "expected true or false, found \(describe(value))") }
    }

    mutating func unit(_ value: Any, at path: String) {
        guard let n = number(value) else { return note(path, "expected a number from 0 to 1, found \(describe(value))") }
        if !(0...1).contains(n) { note(path, "\(describe(value)) is outside 0–1") }
    }

    mutating func oneOf(_ value: Any, _ allowed: Set<String>, at path: String) {
        if !allowed.contains(value as? String ?? "") {
            note(path, "unknown value \(describe(value)) (known: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber, !isBool(value) else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    func isBool(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        // JSONSerialization gives true/false as NSNumber of type "c" (CFBoolean).
        return String(cString: n.objCType) == "c"
    }

    func isStringArray(_ value: Any) -> Bool { (value as? [Any])?.allSatisfy { $0 is String } ?? false }

    func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBool(value) { return (value as? NSNumber)?.boolValue == true ? "true" : "false" }
        if let s = value as? String { return "\"" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "\"" }
        if let n = number(value) { return Int(exactly: n).map(String.init) ?? String(n) }
        if value is [Any] { return "a list" }
        if value is [String: Any] { return "an object" }
        return "a value of another type"
    }
}
