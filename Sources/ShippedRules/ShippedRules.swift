/// The rule modules shipped with reswatch (`rules/*.yaml`), compiled into the binary by the
/// EmbedShippedRules build plugin. The binary needs no `rules/` folder beside it.
public enum ShippedRules {
    public struct Module: Sendable, Hashable {
        /// File name in `rules/` (e.g. `icon.yaml`).
        public let name: String
        /// The module's YAML text.
        public let text: String
    }

    /// Every shipped module, sorted by name (the load order of a directory).
    public static var modules: [Module] { embedded }

    /// How a built-in module is named in messages and rule sources.
    public static func displayPath(_ name: String) -> String { "<built-in>/rules/\(name)" }
}
