import Foundation
import ImageFacts
import SystemCalls

/// An icon set as one small PNG (`check --format markdown --assets DIR`): its slots in
/// Contents.json order, a 64-pixel cell each, the picture over a checkerboard where it is
/// transparent, a red frame where a slot has no picture. Markdown cannot embed `data:` URIs
/// everywhere; a file beside the summary can be uploaded with it.
enum ContactSheet {
    static let cell = 64
    static let gap = 6
    static let columns = 8

    /// The sheet's PNG, or nil for a set without slots.
    static func png(_ set: IconGallery.IconSet) -> [UInt8]? {
        guard !set.slots.isEmpty else { return nil }
        let slots = Array(set.slots.prefix(96))
        let cols = min(columns, slots.count)
        let rows = (slots.count + cols - 1) / cols
        let width = cols * (cell + gap) + gap
        let height = rows * (cell + gap) + gap
        var canvas = [UInt8](repeating: 255, count: width * height * 4)
        for (i, slot) in slots.enumerated() {
            let x0 = gap + (i % cols) * (cell + gap)
            let y0 = gap + (i / cols) * (cell + gap)
            guard let path = slot.path, let image = picture(set.root + "/" + path) else {
                frame(&canvas, width: width, x0: x0, y0: y0)
                continue
            }
            draw(image, into: &canvas, width: width, x0: x0, y0: y0)
        }
        return try? RGBAImage(width: width, height: height, pixels: canvas).png(alpha: false).get()
    }

    /// The picture at `path` scaled to fit a cell, or nil when it cannot be drawn.
    static func picture(_ path: String) -> RGBAImage? {
        guard let data = try? FileSystem.readFile(path, limit: Thumbnails.maximumFileBytes),
            case .success(let image) = RGBAImage.decode(data)
        else { return nil }
        let (w, h) = Thumbnails.fit(image.width, image.height, side: cell)
        return w == image.width && h == image.height ? image : image.resized(width: w, height: h)
    }

    /// The image centred in its cell, over a checkerboard (each pixel composited by its alpha).
    static func draw(_ image: RGBAImage, into canvas: inout [UInt8], width: Int, x0: Int, y0: Int) {
        let ox = x0 + (cell - image.width) / 2
        let oy = y0 + (cell - image.height) / 2
        for y in 0..<image.height {
            for x in 0..<image.width {
                let s = (y * image.width + x) * 4
                let d = ((oy + y) * width + ox + x) * 4
                let board: UInt16 = ((x / 8 + y / 8) % 2 == 0) ? 255 : 214
                let a = UInt16(image.pixels[s + 3])
                for c in 0..<3 { canvas[d + c] = UInt8((UInt16(image.pixels[s + c]) * a + board * (255 - a)) / 255) }
            }
        }
    }

    /// A red frame: a slot with no picture.
    static func frame(_ canvas: inout [UInt8], width: Int, x0: Int, y0: Int) {
        for i in 0..<cell {
            for (x, y) in [
                (x0 + i, y0), (x0 + i, y0 + 1), (x0 + i, y0 + cell - 1), (x0 + i, y0 + cell - 2), (x0, y0 + i), (x0 + 1, y0 + i),
                (x0 + cell - 1, y0 + i), (x0 + cell - 2, y0 + i),
            ] {
                let d = (y * width + x) * 4
                canvas[d] = 201
                canvas[d + 1] = 25
                canvas[d + 2] = 11
            }
        }
    }
}
