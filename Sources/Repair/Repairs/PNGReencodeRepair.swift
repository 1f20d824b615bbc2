import Findings
import ImageFacts
import RuleEngine
import SystemCalls

/// `image.interlaced`, `image.16-bit`, `image.indexed`, `image.not-rgb` on an app icon or a launch
/// image: re-encoded as an 8-bit, non-interlaced RGB PNG (RGBA when it has transparent pixels), the
/// pixels as they were. Images of other sets are left (those findings are information there).
enum PNGReencodeRepair: RepairKind {
    static let rules: Set<String> = ["image.interlaced", "image.16-bit", "image.indexed", "image.not-rgb"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let folder = RelativePath.name(RelativePath.parent(finding.path))
        let isIconOrLaunch =
            folder.hasSuffix(".appiconset") || folder.hasSuffix(".launchimage") || finding.severity >= .warning
        guard isIconOrLaunch else { return .leave("an image outside app icons and launch images: nothing to repair") }
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        guard case .success(let image) = RGBAImage.decode(bytes) else { return .leave("it cannot be decoded: re-export it") }
        guard case .success(let png) = image.png(alpha: !image.isOpaque) else { return .leave("it could not be encoded") }
        if png == bytes { return .alreadyRepaired }
        return .repair(
            title: "Re-encode \(finding.path) as an 8-bit\(image.isOpaque ? " RGB" : " RGBA"), non-interlaced PNG (same pixels)",
            changes: [context.write(finding.path, png)])
    }
}
