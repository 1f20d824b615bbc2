import SystemCalls

/// What a file's first bytes say it is. `.png` files that are not PNGs are a classic App Store rejection.
public enum ImageKind: String, Sendable, Hashable {
    case png, jpeg, gif, webp, heic, tiff, bmp, pdf
    case appleDouble = "AppleDouble resource fork"
    /// A Git LFS pointer (`version https://git-lfs.github.com/spec/v1` …): the repository was
    /// cloned without `git lfs pull`, and the image itself is not in the tree.
    case lfsPointer = "Git LFS pointer"
    case empty = "empty file"
    case unknown = "unknown data"

    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .heic: "HEIC"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        case .pdf: "PDF"
        case .appleDouble, .lfsPointer, .empty, .unknown: rawValue
        }
    }

    /// Identifies content by its magic number.
    public static func sniff<C: Collection<UInt8>>(_ bytes: C) -> ImageKind where C.Index == Int {
        // The first 48 bytes on the stack, compared in place: the seven arrays the tests below made
        // were 1,100 instructions an image.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { b in
            var n = 0
            for byte in bytes.prefix(48) {
                b[n] = byte
                n += 1
            }
            return sniff(UnsafeBufferPointer(rebasing: b[..<n]))
        }
    }

    private static func sniff(_ b: UnsafeBufferPointer<UInt8>) -> ImageKind {
        func starts(_ magic: StaticString, at offset: Int = 0) -> Bool {
            let count = magic.utf8CodeUnitCount
            guard b.count >= offset + count else { return false }
            for i in 0..<count where b[offset + i] != magic.utf8Start[i] { return false }
            return true
        }
        func starts(_ magic: (UInt8, UInt8, UInt8, UInt8)) -> Bool {
            b.count >= 4 && b[0] == magic.0 && b[1] == magic.1 && b[2] == magic.2 && b[3] == magic.3
        }
        if b.isEmpty { return .empty }
        if starts((0x89, 0x50, 0x4E, 0x47)) && starts("\r\n\u{1A}\n", at: 4) { return .png }
        if b.count >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF { return .jpeg }
        if starts("GIF8") { return .gif }
        if starts("RIFF") && starts("WEBP", at: 8) { return .webp }
        if starts("ftyp", at: 4) && (starts("heic", at: 8) || starts("mif1", at: 8)) { return .heic }
        if starts((0x49, 0x49, 0x2A, 0x00)) || starts((0x4D, 0x4D, 0x00, 0x2A)) { return .tiff }
        if starts("BM") { return .bmp }
        if starts("%PDF") { return .pdf }
        if starts((0x00, 0x05, 0x16, 0x07)) { return .appleDouble }
        // The pointer's first line, as the Git LFS specification fixes it (spec v1: "version
        // https://git-lfs.github.com/spec/v1"; earlier pointers say "https://hawser.github.com/spec/v1").
        if starts("version https://git-lfs.github.com/spec/") || starts("version https://hawser.github.com/spec/") { return .lfsPointer }
        return .unknown
    }
}

/// PNG colour types (IHDR byte 9).
public enum PNGColorType: Int32, Sendable, Hashable {
    case grayscale = 0, rgb = 2, palette = 3, grayscaleAlpha = 4, rgba = 6

    public var hasAlphaChannel: Bool { self == .grayscaleAlpha || self == .rgba }
    public var isGrayscale: Bool { self == .grayscale || self == .grayscaleAlpha }
    public var name: String {
        switch self {
        case .grayscale: "grayscale"
        case .rgb: "RGB"
        case .palette: "palette (indexed)"
        case .grayscaleAlpha: "grayscale+alpha"
        case .rgba: "RGBA"
        }
    }
}

/// The IHDR fields and which ancillary chunks are present.
public struct PNGHeader: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var bitDepth: Int
    public var colorType: PNGColorType?
    public var rawColorType: Int
    public var interlaced: Bool
    public var hasPalette: Bool
    public var hasTransparencyChunk: Bool
    public var hasICCProfile: Bool
    public var hasSRGB: Bool
    public var isCgBI: Bool

    /// Alpha as App Store Connect sees it: an alpha channel or a tRNS chunk, whatever the pixels are.
    public var hasAlpha: Bool { (colorType?.hasAlphaChannel ?? false) || hasTransparencyChunk }

    public init(
        width: Int, height: Int, bitDepth: Int, rawColorType: Int, interlaced: Bool,
        hasPalette: Bool = false, hasTransparencyChunk: Bool = false, hasICCProfile: Bool = false,
        hasSRGB: Bool = false, isCgBI: Bool = false
    ) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.rawColorType = rawColorType
        self.colorType = PNGColorType(rawValue: Int32(rawColorType))
        self.interlaced = interlaced
        self.hasPalette = hasPalette
        self.hasTransparencyChunk = hasTransparencyChunk
        self.hasICCProfile = hasICCProfile
        self.hasSRGB = hasSRGB
        self.isCgBI = isCgBI
    }
}

/// Facts read from one version of a file, without decoding pixels.
public struct ImageFacts: Sendable, Hashable {
    public let key: FileKey
    public let kind: ImageKind
    /// Present for PNGs whose header could be read (also for CgBI files).
    public let header: PNGHeader?
    /// Why the PNG is damaged (truncated, CRC, missing IHDR/IEND, libpng error); nil when intact so far.
    public let damage: String?

    public init(key: FileKey, kind: ImageKind, header: PNGHeader?, damage: String?) {
        self.key = key
        self.kind = kind
        self.header = header
        self.damage = damage
    }
}

/// The result of a full decode.
/// A rectangle of pixels, corners inclusive.
public struct PixelBox: Sendable, Hashable, CustomStringConvertible {
    public let x0, y0, x1, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
    public var description: String { x0 == x1 && y0 == y1 ? "at (\(x0), \(y0))" : "between (\(x0), \(y0)) and (\(x1), \(y1))" }
}

public struct PixelFacts: Sendable, Hashable {
    public let key: FileKey
    /// Some pixel's alpha is below the maximum (255, or 65535 for 16-bit images).
    public let anyTransparent: Bool
    public let transparentPixels: Int
    public let minimumAlpha: Int
    /// Pixels a person can see through (alpha below `seeThroughAlpha` of 255) outside the corners
    /// the rounded icon mask hides, and the box (x0, y0, x1, y1) they lie in.
    public let seeThroughPixels: Int
    public let seeThroughBox: PixelBox?
    public static let seeThroughAlpha = 230
    /// Decode failure (zlib error, truncated data, CgBI); pixel fields are meaningless then.
    public let damage: String?
    /// Not decoded because it is too large (a valid PNG beyond the decode budget): why.
    public var notDecoded: String?

    public init(
        key: FileKey, anyTransparent: Bool, transparentPixels: Int, minimumAlpha: Int, damage: String?, seeThroughPixels: Int = 0,
        seeThroughBox: PixelBox? = nil
    ) {
        self.key = key
        self.anyTransparent = anyTransparent
        self.transparentPixels = transparentPixels
        self.minimumAlpha = minimumAlpha
        self.seeThroughPixels = seeThroughPixels
        self.seeThroughBox = seeThroughBox
        self.damage = damage
    }
}
