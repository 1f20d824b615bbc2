import Findings
import ImageFacts
import RuleEngine
import SystemCalls

/// `image.not-png` where the file holds JPEG data. In an image set the file is renamed to `.jpg`
/// (image sets take JPEG: the bytes stay as they are) and its Contents.json entry follows.
/// Where the image must be a PNG (an app icon, a launch image), or the `.jpg` name is taken, it is
/// re-encoded as a PNG under its name: the pixels libjpeg-turbo decodes, 8-bit RGB.
enum JPEGNamedPNGRepair: RepairKind {
    static let rules: Set<String> = ["image.not-png"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let set = RelativePath.parent(finding.path)
        let name = RelativePath.name(finding.path)
        guard finding.message.contains("JPEG data") else {
            return .leave("re-export it as a PNG (reswatch renames only JPEG data, which image sets take as .jpg)")
        }
        let contents = RelativePath.join(set, "Contents.json")
        let base = name.lowercased().hasSuffix(".png") ? String(name.dropLast(4)) : name
        let target = RelativePath.join(set, base + ".jpg")
        guard set.hasSuffix(".imageset"), !context.exists(target) else { return reencode(finding, in: context) }
        guard let bytes = context.read(contents), let new = ContentsText.renamingFile(bytes, from: name, to: base + ".jpg") else {
            return .leave("\(contents) does not name it as text reswatch can follow")
        }
        return .repair(
            title: "Rename \(name) to \(base).jpg (it is JPEG data) and name it so in Contents.json",
            changes: [context.rename(finding.path, target), context.write(contents, new)])
    }

    /// The JPEG written again as a PNG under its own name.
    static func reencode(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let bytes = context.read(finding.path) else { return .leave("it cannot be read") }
        let image: RGBAImage
        switch RGBAImage.decodeJPEG(bytes) {
        case .success(let decoded): image = decoded
        case .failure(let failure): return .leave("its JPEG data cannot be decoded (\(failure.description)): re-export it as a PNG")
        }
        guard case .success(let png) = image.png(alpha: false) else { return .leave("it could not be encoded as a PNG") }
        return .repair(
            title:
                "Re-encode \(RelativePath.name(finding.path)) as a PNG (it held JPEG data; \(image.width)x\(image.height), the pixels as decoded)",
            changes: [context.write(finding.path, png)])
    }
}
