import CPNGShim

/// Describes a PNG to synthesise: used by rule examples (which run as tests and in
/// `reswatch rules check`) and by tests that need broken files of every kind.
public struct PNGSpec: Sendable, Hashable {
    public enum Color: String, Sendable, Hashable, CaseIterable {
        case rgb, rgba, gray, grayAlpha = "gray-alpha", palette
    }
    public var width: Int
    public var height: Int
    public var color: Color = .rgb
    public var bitDepth: Int = 8
    public var interlaced = false
    /// Make one pixel transparent (needs alpha, or `trns` for palette/RGB): by default the corner
    /// pixel (0, 0) with alpha 0; `transparentAt` and `transparentAlpha` choose another.
    public var transparentPixels = false
    public var transparentAt: (x: Int, y: Int)? {
        get { transparentX.flatMap { x in transparentY.map { (x, $0) } } }
        set {
            transparentX = newValue?.x
            transparentY = newValue?.y
        }
    }
    var transparentX: Int?
    var transparentY: Int?
    /// Alpha of the transparent pixel (0–255; scaled for 16-bit).
    public var transparentAlpha = 0
    /// Add a tRNS chunk (palette: per-entry alpha; RGB/gray: a colour key).
    public var trns = false
    /// Put an Apple CgBI chunk first.
    public var cgbi = false
    /// Flip a bit in the IDAT CRC.
    public var badCRC = false
    /// Cut the file to this many bytes.
    public var truncateTo: Int?

    public init(
        width: Int, height: Int, color: Color = .rgb, bitDepth: Int = 8, interlaced: Bool = false,
        transparentPixels: Bool = false, trns: Bool = false, cgbi: Bool = false, badCRC: Bool = false,
        truncateTo: Int? = nil
    ) {
        self.width = width
        self.height = height
        self.color = color
        self.bitDepth = bitDepth
        self.interlaced = interlaced
        self.transparentPixels = transparentPixels
        self.trns = trns
        self.cgbi = cgbi
        self.badCRC = badCRC
        self.truncateTo = truncateTo
    }
}

public enum PNGSynthesizer {
    public static func encode(_ spec: PNGSpec) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let colorType: UInt8 =
            switch spec.color {
            case .gray: 0
            case .rgb: 2
            case .palette: 3
            case .grayAlpha: 4
            case .rgba: 6
            }
        let depth = spec.color == .palette ? 8 : spec.bitDepth
        if spec.cgbi { appendChunk(&out, "CgBI", [0x50, 0x00, 0x20, 0x06]) }
        var ihdr: [UInt8] = []
        ihdr += be32(UInt32(spec.width)) + be32(UInt32(spec.height))
        ihdr += [UInt8(depth), colorType, 0, 0, spec.interlaced ? 1 : 0]
        appendChunk(&out, "IHDR", ihdr)
        if spec.color == .palette {
            appendChunk(&out, "PLTE", [0x20, 0x60, 0xC0, 0xFF, 0xFF, 0xFF])
            if spec.trns || spec.transparentPixels { appendChunk(&out, "tRNS", [0xFF, 0x00]) }
        } else if spec.trns {
            switch spec.color {
            case .rgb: appendChunk(&out, "tRNS", [0, 1, 0, 2, 0, 3])
            case .gray: appendChunk(&out, "tRNS", [0, 1])
            default: break
            }
        }
        let raw = pixelData(spec, depth: depth)
        var compressed = [UInt8](repeating: 0, count: rw_zlib_bound(raw.count))
        let n = raw.withUnsafeBufferPointer { src in
            compressed.withUnsafeMutableBufferPointer { dst in
                rw_zlib_compress(src.baseAddress, src.count, dst.baseAddress, dst.count)
            }
        }
        compressed.removeSubrange(n...)
        let idatStart = out.count
        appendChunk(&out, "IDAT", compressed)
        if spec.badCRC { out[out.count - 1] ^= 0x01 }
        _ = idatStart
        appendChunk(&out, "IEND", [])
        if let cut = spec.truncateTo, cut < out.count { out.removeSubrange(cut...) }
        return out
    }

    static func pixelData(_ spec: PNGSpec, depth: Int) -> [UInt8] {
        let wide = depth == 16
        let alpha = UInt16(max(0, min(255, spec.transparentAlpha))) * 257
        func samples(_ transparent: Bool) -> [UInt8] {
            let values: [UInt16]
            switch spec.color {
            case .palette: return [transparent ? 1 : 0]
            case .gray: values = [0x8080]
            case .grayAlpha: values = [0x8080, transparent ? alpha : 0xFFFF]
            case .rgb: values = [0x2020, 0x6060, 0xC0C0]
            case .rgba: values = [0x2020, 0x6060, 0xC0C0, transparent ? alpha : 0xFFFF]
            }
            return values.flatMap { wide ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 >> 8)] }
        }
        let opaque = samples(false)
        let clear = samples(true)
        var data: [UInt8] = []
        // One pixel at most is transparent; every other pixel is the same colour.
        let (tx, ty) = spec.transparentAt ?? (0, 0)
        func appendRows(x0: Int, y0: Int, dx: Int, dy: Int) {
            let columns = spec.width > x0 ? (spec.width - x0 + dx - 1) / dx : 0
            let rows = spec.height > y0 ? (spec.height - y0 + dy - 1) / dy : 0
            guard columns > 0, rows > 0 else { return }
            var row: [UInt8] = [0]
            row.reserveCapacity(1 + columns * opaque.count)
            for _ in 0..<columns { row += opaque }
            for r in 0..<rows {
                let y = y0 + r * dy
                if spec.transparentPixels, y == ty, tx >= x0, (tx - x0) % dx == 0 {
                    var marked = row
                    let at = 1 + (tx - x0) / dx * clear.count
                    marked.replaceSubrange(at..<(at + clear.count), with: clear)
                    data += marked
                } else {
                    data += row
                }
            }
        }
        if spec.interlaced {
            let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            for (x0, y0, dx, dy) in passes { appendRows(x0: x0, y0: y0, dx: dx, dy: dy) }
        } else {
            appendRows(x0: 0, y0: 0, dx: 1, dy: 1)
        }
        return data
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func appendChunk(_ out: inout [UInt8], _ type: String, _ data: [UInt8]) {
        out += be32(UInt32(data.count))
        let body = Array(type.utf8) + data
        out += body
        let crc = body.withUnsafeBufferPointer { rw_crc32(0, $0.baseAddress, $0.count) }
        out += be32(crc)
    }
}
