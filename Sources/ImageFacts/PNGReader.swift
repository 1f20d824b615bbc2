import CPNGShim
import SystemCalls

/// Reads image facts through the libpng shim. Stateless; caching is `FactsCache`'s job.
public enum PNGReader {
    /// Pixel buffers larger than this are not decoded (a 8192x8192 16-bit RGBA image is 512 MiB).
    public static let decodeLimitBytes: UInt64 = 256 << 20

    /// Header facts of the file at `path` (one read of the file, no inflate).
    public static func inspect(path: String) throws(SystemError) -> ImageFacts {
        let status = try FileSystem.statusFollowingLinks(path)
        let bytes = try FileSystem.readFile(path)
        return inspect(bytes: bytes, key: status.key)
    }

    public static func inspect(bytes: [UInt8], key: FileKey) -> ImageFacts {
        let kind = ImageKind.sniff(bytes)
        guard kind == .png else { return ImageFacts(key: key, kind: kind, header: nil, damage: nil) }
        var info = rw_png_header()
        let code = bytes.withUnsafeBufferPointer { rw_png_inspect($0.baseAddress, $0.count, &info) }
        let message = messageText(&info.message)
        let header: PNGHeader? =
            info.has_ihdr != 0
            ? PNGHeader(
                width: Int(truncatingIfNeeded: info.width), height: Int(truncatingIfNeeded: info.height), bitDepth: Int(info.bit_depth),
                rawColorType: Int(info.color_type), interlaced: info.interlace != 0,
                hasPalette: info.has_plte != 0, hasTransparencyChunk: info.has_trns != 0,
                hasICCProfile: info.has_iccp != 0, hasSRGB: info.has_srgb != 0, isCgBI: info.has_cgbi != 0)
            : nil
        switch Int(code) {
        case Int(RW_PNG_OK), Int(RW_PNG_CGBI):
            return ImageFacts(key: key, kind: .png, header: header, damage: nil)
        default:
            return ImageFacts(key: key, kind: .png, header: header, damage: message.isEmpty ? "unreadable PNG" : message)
        }
    }

    /// Full decode of the file at `path`.
    public static func decode(path: String) throws(SystemError) -> PixelFacts {
        let status = try FileSystem.statusFollowingLinks(path)
        let bytes = try FileSystem.readFile(path)
        return decode(bytes: bytes, key: status.key)
    }

    public static func decode(bytes: [UInt8], key: FileKey) -> PixelFacts {
        if bytes.count > 12, bytes[12...15].elementsEqual("CgBI".utf8) {
            return PixelFacts(
                key: key, anyTransparent: false, transparentPixels: 0, minimumAlpha: 0,
                damage: "CgBI (Xcode-crushed) PNG: standard decoders cannot read it")
        }
        var info = rw_png_pixels()
        let code = DecodeBudget.shared.withReservation(DecodeBudget.estimate(bytes)) {
            bytes.withUnsafeBufferPointer { rw_png_decode_pixels($0.baseAddress, $0.count, decodeLimitBytes, &info) }
        }
        let message = messageText(&info.message)
        if code == RW_PNG_TOO_LARGE {
            var facts = PixelFacts(key: key, anyTransparent: false, transparentPixels: 0, minimumAlpha: 0, damage: nil)
            facts.notDecoded = "\(message) (\(decodeLimitBytes >> 20) MiB): too large to decode"
            return facts
        }
        if code != RW_PNG_OK {
            return PixelFacts(
                key: key, anyTransparent: false, transparentPixels: 0, minimumAlpha: 0,
                damage: message.isEmpty ? "decode failed" : message)
        }
        let seeThrough = Int(info.see_through_pixels)
        return PixelFacts(
            key: key, anyTransparent: info.any_transparent != 0, transparentPixels: Int(info.transparent_pixels),
            minimumAlpha: Int(info.min_alpha), damage: nil, seeThroughPixels: seeThrough,
            seeThroughBox: seeThrough == 0
                ? nil
                : PixelBox(x0: Int(info.box_min_x), y0: Int(info.box_min_y), x1: Int(info.box_max_x), y1: Int(info.box_max_y)))
    }

    public static var libpngVersion: String { String(cString: rw_png_library_version()) }

    private static func messageText<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let chars = raw.prefix { $0 != 0 }
            return String(decoding: chars, as: UTF8.self)
        }
    }
}
