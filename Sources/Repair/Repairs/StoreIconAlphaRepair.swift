import Findings
import ImageFacts

/// `icon.marketing-alpha` (ITMS-90717), `icon.watch-alpha` (ITMS-90396) and
/// `tv.brandassets-alpha` (ITMS-90497, a Top Shelf image or an icon stack's back layer): an image
/// with an alpha channel and no transparent pixel loses the channel, every pixel's colour unchanged. One
/// with transparent pixels would look different flattened: it is left, unless `--background`
/// names the colour to lay it over.
enum StoreIconAlphaRepair: RepairKind {
    static let rules: Set<String> = ["icon.marketing-alpha", "icon.watch-alpha", "tv.brandassets-alpha"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        let image: RGBAImage
        switch RGBAImage.decode(bytes) {
        case .failure(let failure): return .leave("it cannot be decoded (\(failure)): re-export it")
        case .success(let decoded): image = decoded
        }
        var flattened = image
        var title = "Drop the alpha channel of \(finding.path) (every pixel is opaque: nothing changes how it looks)"
        if !image.isOpaque {
            guard let background = context.options.background else {
                return .leave("it has transparent pixels: flattening changes how it looks; --background COLOR lays it over a colour")
            }
            flattened = image.composited(onto: background.red, background.green, background.blue)
            title = "Lay \(finding.path) over the background colour given and drop its alpha channel"
        }
        switch flattened.png(alpha: false) {
        case .failure(let failure): return .leave("it could not be encoded: \(failure)")
        case .success(let png): return .repair(title: title, changes: [context.write(finding.path, png)])
        }
    }
}
