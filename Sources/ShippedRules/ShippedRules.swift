/// The rule modules shipped with reswatch (`rules/*.yaml`), compiled into the binary by the
/// EmbedShippedRules build plugin. The binary needs no `rules/` folder beside it.
public enum ShippedRules {
    public struct Module: Sendable, Hashable {
        /// File name in `rules/` (e.g. `icon.yaml`).
        public let name: String
        /// The module's YAML text.
        public let text: String
        /// The module composed ahead of time, when Precompiled/NAME.tree holds it.
        public let precompiled: Precompiled?
    }

    /// A built-in module already composed (`make precompiled-rules` writes Precompiled/NAME.tree):
    /// the loader decodes `tree` instead of parsing the YAML at every start, but only while
    /// `digest` is the digest of the embedded text. A module edited since is parsed from its text,
    /// and a test fails until the trees are written again.
    public struct Precompiled: Sendable, Hashable {
        public let digest: UInt64
        /// `ModuleNode.encoded` of the composed module.
        public let tree: String
        public init(digest: UInt64, tree: String) {
            self.digest = digest
            self.tree = tree
        }
    }

    /// Every shipped module, sorted by name (the load order of a directory).
    public static var modules: [Module] { embedded }

    /// How a built-in module is named in messages and rule sources.
    public static func displayPath(_ name: String) -> String { "<built-in>/rules/\(name)" }

    /// FNV-1a (64 bits) of a module's UTF-8 text: tells a precompiled tree from a stale one.
    public static func digest(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            return hash
        }
    }
}
