/// Where each of a context's settings came from, by the setting's name in `.reswatch.yaml`
/// ("devices", "deployment-target", "distribution", "app-icon", "launch-image"), as a
/// dictionary would say it: a name with no source reads nil.
///
/// A field of a byte for each setting the context resolves, where a `[String: ContextSource]`
/// of the three defaults was a heap block of 140 bytes in each project's context (for 1,000
/// roots, 0.14 MB; docs/performance.md). Any other name goes to a dictionary beside them,
/// empty (no heap) unless one is used.
public struct ContextSources: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    private var devices: ContextSource?
    private var deploymentTarget: ContextSource?
    private var distribution: ContextSource?
    private var appIcon: ContextSource?
    private var launchImage: ContextSource?
    private var others: [String: ContextSource] = [:]

    public init(dictionaryLiteral elements: (String, ContextSource)...) {
        for (name, source) in elements { self[name] = source }
    }

    public subscript(name: String) -> ContextSource? {
        get {
            switch name {
            case "devices": devices
            case "deployment-target": deploymentTarget
            case "distribution": distribution
            case "app-icon": appIcon
            case "launch-image": launchImage
            default: others[name]
            }
        }
        set {
            switch name {
            case "devices": devices = newValue
            case "deployment-target": deploymentTarget = newValue
            case "distribution": distribution = newValue
            case "app-icon": appIcon = newValue
            case "launch-image": launchImage = newValue
            default: others[name] = newValue
            }
        }
    }

    /// Every name with a source.
    public var dictionary: [String: ContextSource] {
        var out = others
        for (name, source) in [
            ("devices", devices), ("deployment-target", deploymentTarget), ("distribution", distribution),
            ("app-icon", appIcon), ("launch-image", launchImage),
        ] {
            if let source { out[name] = source }
        }
        return out
    }
}
