import CImageResize
import CPNGShim
import Foundation

/// An image as 8-bit RGBA pixels, for repairs: decoded from any PNG (through libpng, in C that
/// never longjmps through Swift), resampled in linear light, composited, and encoded again as an
/// 8-bit RGB or RGBA PNG.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// width × height × 4 bytes, row by row.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Why an image could not be decoded or encoded.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Largest image decoded (a 1024 icon is 4 MiB; a master twice as large still fits).
    public static let maximumBytes: UInt64 = 64 << 20

    public static func decode(_ bytes: [UInt8]) -> Result<RGBAImage, Failure> {
        var out = rw_png_rgba()
        let status = bytes.withUnsafeBufferPointer { rw_png_decode_rgba8($0.baseAddress, $0.count, maximumBytes, &out) }
        defer { rw_png_free(out.rgba) }
        guard status == Int32(RW_PNG_OK), let rgba = out.rgba else {
            return .failure(
                Failure(description: withUnsafeBytes(of: out.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }))
        }
        let count = Int(truncatingIfNeeded: out.width) * Int(truncatingIfNeeded: out.height) * 4
        return .success(
            RGBAImage(
                width: Int(truncatingIfNeeded: out.width), height: Int(truncatingIfNeeded: out.height),
                pixels: Array(UnsafeBufferPointer(start: rgba, count: count))))
    }

    /// True when every pixel's alpha is 255.
    public var isOpaque: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }

    /// The image resampled to `width` × `height` in linear light (stb_image_resize, Mitchell).
    public func resized(width w: Int, height h: Int) -> RGBAImage? {
        guard w > 0, h > 0, w <= 16_384, h <= 16_384 else { return nil }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let status = pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer {
                rw_resize_rgba8_srgb(input.baseAddress, Int32(width), Int32(height), $0.baseAddress, Int32(w), Int32(h))
            }
        }
        return status == 0 ? RGBAImage(width: w, height: h, pixels: out) : nil
    }

    /// Every pixel laid over an opaque colour, in linear light: the result is opaque.
    public func composited(onto red: UInt8, _ green: UInt8, _ blue: UInt8) -> RGBAImage {
        let toLinear = (0..<256).map { v -> Double in
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        func toSRGB(_ l: Double) -> UInt8 {
            let c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (c * 255).rounded())))
        }
        let background = [red, green, blue].map { toLinear[Int(truncatingIfNeeded: $0)] }
        var out = pixels
        var i = 0
        while i < out.count {
            let a = Double(out[i + 3]) / 255
            for c in 0..<3 { out[i + c] = toSRGB(toLinear[Int(truncatingIfNeeded: out[i + c])] * a + background[c] * (1 - a)) }
            out[i + 3] = 255
            i += 4
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    /// The PNG file: 8-bit RGBA, or RGB with `alpha: false` (the alpha channel dropped, the colour
    /// of every pixel unchanged).
    public func png(alpha: Bool) -> Result<[UInt8], Failure> {
        var source = pixels
        if !alpha {
            source = []
            source.reserveCapacity(width * height * 3)
            var i = 0
            while i < pixels.count {
                source.append(contentsOf: pixels[i..<(i + 3)])
                i += 4
            }
        }
        var out = rw_png_buffer()
        let status = source.withUnsafeBufferPointer { rw_png_encode($0.baseAddress, UInt32(width), UInt32(height), alpha ? 4 : 3, &out) }
        defer { rw_png_free(out.data) }
        guard status == Int32(RW_PNG_OK), let data = out.data else {
            return .failure(
                Failure(description: withUnsafeBytes(of: out.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }))
        }
        return .success(Array(UnsafeBufferPointer(start: data, count: out.length)))
    }
}
