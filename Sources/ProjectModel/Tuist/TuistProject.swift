import SwiftParser
import SwiftSyntax

/// Reads a Tuist manifest (`Project.swift`) into the model an `.xcodeproj` gives, from its
/// literal arguments only: the manifest is Swift code and is parsed (swift-syntax), never run.
/// Per target: `name`, `product`, `destinations` (or the older `platform`), `deploymentTargets`
/// (or `deploymentTarget`), `infoPlist`, `resources`, and `settings: .settings(base: [...])`;
/// per project: `name` and `settings`. An argument that is not a literal (a variable, a helper
/// call, an interpolated string) is not guessed: a note says it was not read.
///
/// Tuist applies Xcode's recommended target settings unless `defaultSettings` says otherwise:
/// for an iOS app `ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon`, and `TARGETED_DEVICE_FAMILY`
/// from the destinations (tuist/tuist `DefaultSettingsProvider`, XcodeProj `BuildSettingsProvider`).
public enum TuistReader {
    public static let fileName = "Project.swift"

    public struct Failure: Error, Sendable, Hashable {
        public let line: Int?
        public let message: String
    }

    static let productTypes: [String: String] = [
        "app": "com.apple.product-type.application", "appExtension": "com.apple.product-type.app-extension",
        "extensionKitExtension": "com.apple.product-type.extensionkit-extension",
        "messagesExtension": "com.apple.product-type.app-extension", "stickerPackExtension": "com.apple.product-type.app-extension",
        "appClip": "com.apple.product-type.application.on-demand-install-capable",
        "watch2App": "com.apple.product-type.application.watchapp2", "watch2Extension": "com.apple.product-type.watchkit2-extension",
        "framework": "com.apple.product-type.framework", "staticFramework": "com.apple.product-type.framework",
        "staticLibrary": "com.apple.product-type.library.static", "dynamicLibrary": "com.apple.product-type.library.dynamic",
        "bundle": "com.apple.product-type.bundle", "unitTests": "com.apple.product-type.bundle.unit-test",
        "uiTests": "com.apple.product-type.bundle.ui-testing", "commandLineTool": "com.apple.product-type.tool",
    ]
    /// Destination presets (`Destinations.iOS` …) and single destinations, by the platform they build for.
    static let sdks = ["iOS": "iphoneos", "tvOS": "appletvos", "watchOS": "watchos", "macOS": "macosx", "visionOS": "xros"]
    static let deploymentKeys = [
        "iOS": "IPHONEOS_DEPLOYMENT_TARGET", "tvOS": "TVOS_DEPLOYMENT_TARGET", "watchOS": "WATCHOS_DEPLOYMENT_TARGET",
        "macOS": "MACOSX_DEPLOYMENT_TARGET", "visionOS": "XROS_DEPLOYMENT_TARGET",
    ]

    static let maximumNesting = 64

    /// The deepest nesting of `(`, `[`, `{` and `<` (outside string literals and comments), or of
    /// `#if` blocks, and
    /// the line where it is first reached; a linear pass over the bytes. Unclosed `<` (a
    /// comparison) count too, so this is an upper bound.
    static func deepestNesting(_ bytes: [UInt8]) -> (Int, Int)? {
        var depth = 0
        var conditionals = 0
        var deepest = (0, 1)
        var line = 1
        var i = 0
        var inString = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") {
                line += 1
                // Conditional compilation nests too (`#if` … `#endif`); the parser is slow on it.
                var j = i + 1
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j += 1 }
                if bytes[j...].starts(with: "#if".utf8) {
                    conditionals += 1
                    if conditionals > deepest.0 { deepest = (conditionals, line) }
                } else if bytes[j...].starts(with: "#endif".utf8) {
                    conditionals = max(0, conditionals - 1)
                }
            }
            if inString {
                if b == UInt8(ascii: "\\") {
                    i += 1
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            } else {
                switch b {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "<"):
                    depth += 1
                    if depth > deepest.0 { deepest = (depth, line) }
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ">"): depth = max(0, depth - 1)
                default: break
                }
            }
            i += 1
        }
        return deepest.0 > 0 ? deepest : nil
    }

    /// `path` is the root-relative Project.swift. The notes say what was not read, with lines.
    public static func read(_ path: String, files: some ProjectFileAccess) -> Result<(XcodeProject, notes: [String]), Failure> {
        let bytes: [UInt8]
        switch files.read(path) {
        case .success(let b): bytes = b
        case .failure(let e): return .failure(Failure(line: nil, message: "cannot be read (\(e.reason))"))
        }
        // swift-syntax's lookahead recurses once per bracket whatever its nesting limit: a hostile
        // manifest of nested brackets would overflow the stack. Real manifests nest a dozen deep.
        if let (depth, line) = deepestNesting(bytes), depth > maximumNesting {
            return .failure(
                Failure(line: line, message: "nests brackets or #if blocks \(depth) deep (more than \(maximumNesting)): not read"))
        }
        // The parser and the tree walks recurse with the source's shape: they run on a thread
        // whose stack holds the deepest file FileLimits lets through.
        return LargeStack.run(bytes: parserStack) { () -> Result<(XcodeProject, notes: [String]), Failure> in
            let source = bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: maximumNesting) }
            let converter = SourceLocationConverter(fileName: path, tree: source)
            let finder = ProjectCallFinder(viewMode: .sourceAccurate)
            finder.walk(source)
            guard let call = finder.project else {
                return .failure(Failure(line: nil, message: "has no Project(…) call whose arguments reswatch can read"))
            }
            var reader = TuistManifestReader(
                path: path, converter: converter, bindings: TuistManifestReader.bindings(of: source),
                functions: TuistManifestReader.functions(of: source))
            let project = reader.project(call)
            return .success((project, reader.notes))
        }
    }

    /// The stack the parse runs on (virtual: only the pages a deep file touches are used).
    static let parserStack = 512 << 20
}

/// Finds the first `Project(…)` call of the manifest.
private final class ProjectCallFinder: SyntaxVisitor {
    var project: FunctionCallExprSyntax?

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if project == nil, node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Project" {
            project = node
            return .skipChildren
        }
        return .visitChildren
    }
}
