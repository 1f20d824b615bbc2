import Foundation
import ImageFacts
import SystemCalls

/// The pictures of an HTML page: each image downscaled to the size it is shown at (with the
/// resampler `fix` uses), encoded as PNG once per identical result, within a byte budget. Past the
/// budget no thumbnail is made, and the page says how many were left out.
final class Thumbnails {
    /// What a slot shows.
    enum Picture: Equatable {
        /// A thumbnail (an index into `images`), the source's pixel size, whether it has transparent
        /// pixels, and for the App Store icon the index of the overlay marking them.
        case image(id: Int, width: Int, height: Int, transparent: Bool, mask: Int?)
        /// Not drawn, and why ("too large to draw", "not a PNG", "left out: page size limit").
        case notDrawn(String)
    }

    /// Base64 PNGs, each once.
    private(set) var images: [String] = []
    private var index: [String: Int] = [:]
    private(set) var bytes = 0
    private(set) var leftOut = 0
    let budget: Int

    /// Largest PNG file read for a thumbnail (a 1024 icon is well under 2 MiB).
    static let maximumFileBytes = 32 << 20

    init(budget: Int) { self.budget = budget }

    /// The picture of the PNG at `path`, `side` CSS pixels at most; `outline`: also make the
    /// overlay that marks its transparent pixels (the 1024 App Store icon).
    func picture(of path: String, side: Int, outline: Bool = false) -> Picture {
        // Only a regular file is read, never blocking (a FIFO named Icon.png is said, not waited on).
        switch Result(catching: { () throws(SystemError) in try FileSystem.readFile(path, limit: Self.maximumFileBytes) }) {
        case .success(let bytes): return picture(of: bytes, side: side, outline: outline)
        case .failure(let error): return .notDrawn("cannot be read: \(error.reason)")
        }
    }

    /// The picture of PNG `bytes` (a file's content before or after a repair).
    func picture(of bytes: [UInt8], side: Int, outline: Bool = false) -> Picture {
        guard bytes.count <= Self.maximumFileBytes else { return .notDrawn("too large to draw (\(bytes.count) bytes)") }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return .notDrawn("not a PNG: not drawn") }
        guard self.bytes < budget else {
            leftOut += 1
            return .notDrawn("thumbnail left out: the page reached its size limit")
        }
        let image: RGBAImage
        switch RGBAImage.decode(bytes) {
        case .success(let decoded): image = decoded
        case .failure(let failure): return .notDrawn("cannot be drawn: \(failure.description)")
        }
        let (w, h) = Self.fit(image.width, image.height, side: side)
        guard let small = (w == image.width && h == image.height) ? image : image.resized(width: w, height: h),
            case .success(let png) = small.png(alpha: true)
        else { return .notDrawn("cannot be drawn") }
        let transparent = !image.isOpaque
        var mask: Int?
        if outline, transparent { mask = Self.transparencyMask(of: image, width: w, height: h).flatMap(store) }
        return .image(id: store(png), width: image.width, height: image.height, transparent: transparent, mask: mask)
    }

    /// `width` × `height` scaled down (never up) to fit a `side`-pixel square, rounded, in integers.
    static func fit(_ width: Int, _ height: Int, side: Int) -> (Int, Int) {
        let longest = max(width, height, 1)
        guard longest > side else { return (max(1, width), max(1, height)) }
        return (max(1, (width * side + longest / 2) / longest), max(1, (height * side + longest / 2) / longest))
    }

    private func store(_ png: [UInt8]) -> Int {
        let encoded = Data(png).base64EncodedString()
        if let known = index[encoded] { return known }
        images.append(encoded)
        index[encoded] = images.count - 1
        bytes += encoded.utf8.count
        return images.count - 1
    }

    /// An overlay the size of the thumbnail: opaque magenta where the source has a pixel that is
    /// not fully opaque (any source pixel the thumbnail pixel covers), clear elsewhere.
    static func transparencyMask(of image: RGBAImage, width w: Int, height h: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<image.height {
            let ty = min(h - 1, y * h / image.height)
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] != 255 {
                let o = (ty * w + min(w - 1, x * w / image.width)) * 4
                out[o] = 255
                out[o + 1] = 0
                out[o + 2] = 255
                out[o + 3] = 255
            }
        }
        guard case .success(let png) = RGBAImage(width: w, height: h, pixels: out).png(alpha: true) else { return nil }
        return png
    }
}
