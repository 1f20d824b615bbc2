import Foundation
import ImageFacts
import SystemCalls
import TestSupport
import Testing

@Suite struct PNGReaderTests {
    let key = FileKey(device: 0, inode: 0, size: 0, modifiedNanoseconds: 0)

    func inspect(_ spec: PNGSpec) -> ImageFacts { PNGReader.inspect(bytes: PNGSynthesizer.encode(spec), key: key) }

    @Test func readsIHDRAndChunks() throws {
        let facts = inspect(PNGSpec(width: 120, height: 121, color: .rgba, bitDepth: 16))
        let h = try #require(facts.header)
        #expect(facts.kind == .png && facts.damage == nil)
        #expect(h.width == 120 && h.height == 121 && h.bitDepth == 16 && h.colorType == .rgba && !h.interlaced)
        #expect(h.hasAlpha && !h.hasTransparencyChunk && !h.isCgBI)
    }

    @Test func paletteWithTRNSHasAlpha() throws {
        let h = try #require(inspect(PNGSpec(width: 8, height: 8, color: .palette, trns: true)).header)
        #expect(h.colorType == .palette && h.hasPalette && h.hasTransparencyChunk && h.hasAlpha)
        let plain = try #require(inspect(PNGSpec(width: 8, height: 8, color: .palette)).header)
        #expect(!plain.hasAlpha)
    }

    @Test func interlaceFlag() throws {
        #expect(try #require(inspect(PNGSpec(width: 9, height: 9, interlaced: true)).header).interlaced)
    }

    @Test func truncatedFileIsDamaged() {
        let full = PNGSynthesizer.encode(PNGSpec(width: 64, height: 64))
        for cut in [20, 40, full.count - 20, full.count - 5] {
            let facts = PNGReader.inspect(bytes: Array(full.prefix(cut)), key: key)
            #expect(facts.damage != nil, "cut at \(cut) should be damaged")
        }
        #expect(PNGReader.inspect(bytes: Array(full.prefix(full.count - 5)), key: key).damage!.contains("truncated"))
    }

    @Test func badCRCIsDamaged() {
        let facts = inspect(PNGSpec(width: 8, height: 8, badCRC: true))
        #expect(facts.damage?.contains("CRC error in chunk 'IDAT'") == true)
    }

    @Test func missingIENDAndIHDR() {
        var bytes = PNGSynthesizer.encode(PNGSpec(width: 8, height: 8))
        bytes.removeLast(12)  // drop IEND
        #expect(PNGReader.inspect(bytes: bytes, key: key).damage?.contains("IEND") == true)
        let sig = Array(bytes.prefix(8))
        let afterIHDR = Array(bytes.dropFirst(8 + 25))
        #expect(PNGReader.inspect(bytes: sig + afterIHDR, key: key).damage?.contains("IHDR") == true)
    }

    @Test func cgbiIsRecognisedBeforeLibpng() throws {
        let facts = inspect(PNGSpec(width: 57, height: 57, cgbi: true))
        let h = try #require(facts.header)
        #expect(h.isCgBI && h.width == 57 && facts.damage == nil)
        #expect(PNGReader.decode(bytes: PNGSynthesizer.encode(PNGSpec(width: 4, height: 4, cgbi: true)), key: key).damage != nil)
    }

    @Test func sniffsOtherFormats() {
        #expect(ImageKind.sniff([UInt8]()) == .empty)
        #expect(ImageKind.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageKind.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageKind.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind.sniff([0x00, 0x05, 0x16, 0x07, 0, 2]) == .appleDouble)
        #expect(ImageKind.sniff(Array("hello".utf8)) == .unknown)
        // Git LFS pointers (spec v1, and the older hawser spelling); a text that only starts alike is not one.
        #expect(ImageKind.sniff(Array("version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 1\n".utf8)) == .lfsPointer)
        #expect(ImageKind.sniff(Array("version https://hawser.github.com/spec/v1\noid sha256:ab\nsize 1\n".utf8)) == .lfsPointer)
        #expect(ImageKind.sniff(Array("version https://example.com/spec/v1\n".utf8)) == .unknown)
        #expect(ImageKind.sniff(Array("version https://git-lfs.github.co".utf8)) == .unknown, "cut short")
    }

    /// The magic numbers, as the first version of `sniff` compared them (arrays of each prefix).
    static func referenceSniff(_ bytes: [UInt8]) -> ImageKind {
        let b = Array(bytes.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<offset + magic.count]) == magic
        }
        if b.isEmpty { return .empty }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4) && (starts(Array("heic".utf8), at: 8) || starts(Array("mif1".utf8), at: 8)) { return .heic }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts(Array("%PDF".utf8)) { return .pdf }
        if starts([0x00, 0x05, 0x16, 0x07]) { return .appleDouble }
        return .unknown
    }

    static func randomBytes(_ counts: ClosedRange<Int>, _ generator: inout SeededGenerator) -> [UInt8] {
        (0..<Int.random(in: counts, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Every magic number, whole, cut short by one byte, with one byte changed and with random
    /// tails, from an array and from a slice: the in-place sniff says what the array version said.
    @Test func sniffingInPlaceAgreesWithTheArrayVersion() {
        let magics: [[UInt8]] = [
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], [0xFF, 0xD8, 0xFF], Array("GIF8".utf8), Array("RIFF\0\0\0\0WEBP".utf8),
            Array("\0\0\0\u{18}ftypheic".utf8), Array("\0\0\0\u{18}ftypmif1".utf8), [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],
            Array("BM".utf8), Array("%PDF".utf8), [0x00, 0x05, 0x16, 0x07],
        ]
        var generator = SeededGenerator(seed: 7)
        var inputs: [[UInt8]] = [[]]
        for magic in magics {
            inputs += [magic, Array(magic.dropLast())]
            for i in magic.indices { inputs.append(magic.enumerated().map { $0.offset == i ? $0.element ^ 0x20 : $0.element }) }
            for _ in 0..<20 { inputs.append(magic + Self.randomBytes(0...12, &generator)) }
        }
        for _ in 0..<2_000 { inputs.append(Self.randomBytes(0...20, &generator)) }
        for input in inputs {
            #expect(ImageKind.sniff(input) == Self.referenceSniff(input), "\(input)")
            #expect(ImageKind.sniff(([0x42] + input)[1...]) == Self.referenceSniff(input), "a slice of \(input)")
        }
        #expect(Set(inputs.map(ImageKind.sniff)).count == 11, "every kind is reached")
    }

    @Test func decodeFindsTransparentPixels() {
        let opaque = PNGReader.decode(bytes: PNGSynthesizer.encode(PNGSpec(width: 16, height: 16, color: .rgba)), key: key)
        #expect(opaque.damage == nil && !opaque.anyTransparent && opaque.minimumAlpha == 255)
        let clear = PNGReader.decode(
            bytes: PNGSynthesizer.encode(PNGSpec(width: 16, height: 16, color: .rgba, transparentPixels: true)), key: key)
        #expect(clear.anyTransparent && clear.transparentPixels == 1 && clear.minimumAlpha == 0)
    }

    @Test func decodeComparesSixteenBitAlphaAtSixteenBits() {
        let opaque16 = PNGReader.decode(bytes: PNGSynthesizer.encode(PNGSpec(width: 8, height: 8, color: .rgba, bitDepth: 16)), key: key)
        #expect(!opaque16.anyTransparent && opaque16.minimumAlpha == 65535)
        let clear16 = PNGReader.decode(
            bytes: PNGSynthesizer.encode(PNGSpec(width: 8, height: 8, color: .grayAlpha, bitDepth: 16, transparentPixels: true)), key: key)
        #expect(clear16.anyTransparent && clear16.minimumAlpha == 0)
    }

    @Test func decodeExpandsPaletteTRNSAndInterlace() {
        let palette = PNGReader.decode(
            bytes: PNGSynthesizer.encode(PNGSpec(width: 8, height: 8, color: .palette, transparentPixels: true)), key: key)
        #expect(palette.damage == nil && palette.anyTransparent)
        let interlaced = PNGReader.decode(
            bytes: PNGSynthesizer.encode(PNGSpec(width: 13, height: 11, color: .rgba, interlaced: true, transparentPixels: true)), key: key)
        #expect(interlaced.damage == nil && interlaced.transparentPixels == 1)
    }

    /// A zlib stream broken inside IDAT with a valid CRC: only a full decode finds it.
    @Test func decodeReportsZlibErrorsThatHeadersMiss() {
        var bytes = PNGSynthesizer.encode(PNGSpec(width: 32, height: 32))
        // IDAT data starts after signature (8) + IHDR chunk (25) + IDAT length/type (8).
        let start = 8 + 25 + 8
        bytes[start + 2] ^= 0xFF
        bytes[start + 3] ^= 0xFF
        // Recompute the IDAT CRC so only the zlib stream is wrong.
        let length = Int(bytes[33]) << 24 | Int(bytes[34]) << 16 | Int(bytes[35]) << 8 | Int(bytes[36])
        let crc = crc32(bytes[37..<(41 + length)])
        bytes.replaceSubrange(
            (41 + length)..<(45 + length), with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        #expect(PNGReader.inspect(bytes: bytes, key: key).damage == nil)
        #expect(PNGReader.decode(bytes: bytes, key: key).damage != nil)
    }

    func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    @Test func libpngIsTheRealLibrary() {
        #expect(PNGReader.libpngVersion.hasPrefix("1.6"))
    }
}

@Suite struct FactsCacheTests {
    func tempFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "/reswatch-facts-\(UUID().uuidString).png"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func unchangedFileIsReadOnce() throws {
        let path = try tempFile(PNGSynthesizer.encode(PNGSpec(width: 10, height: 10)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = FactsCache()
        for _ in 0..<5 { _ = cache.image(at: path) }
        #expect(cache.counters.fileReads == 1)
        #expect(cache.counters.decodes == 0, "header facts never decode pixels")
        _ = cache.pixels(at: path)
        _ = cache.pixels(at: path)
        #expect(cache.counters.decodes == 1)
    }

    /// A file's header and pixel facts are kept side by side while the file is unchanged; a
    /// rewrite drops both, and each is computed again from the new bytes.
    @Test func headerAndPixelsOfOneVersionAreKeptAndARewriteDropsBoth() throws {
        let opaque = PNGSynthesizer.encode(PNGSpec(width: 10, height: 10))
        let path = try tempFile(opaque)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = FactsCache()
        #expect(try cache.image(at: path).get().header?.width == 10)
        #expect(try cache.pixels(at: path).get().anyTransparent == false)
        #expect(try cache.image(at: path).get().header?.width == 10)
        #expect(try cache.pixels(at: path).get().anyTransparent == false)
        #expect(cache.counters.fileReads == 2 && cache.counters.decodes == 1, "one read for each kind of fact, then hits")
        var spec = PNGSpec(width: 12, height: 10, color: .rgba)
        spec.transparentPixels = true
        try Data(PNGSynthesizer.encode(spec)).write(to: URL(fileURLWithPath: path))
        #expect(try cache.pixels(at: path).get().anyTransparent == true)
        #expect(try cache.image(at: path).get().header?.width == 12)
        #expect(cache.counters.fileReads == 4 && cache.counters.decodes == 2)
    }

    /// The daemon's cache is bounded: however many files pass through it, it keeps at most its
    /// capacity, and what it just read is still there.
    @Test func aBoundedCacheStaysWithinItsCapacity() throws {
        let dir = NSTemporaryDirectory() + "/reswatch-facts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = Data(PNGSynthesizer.encode(PNGSpec(width: 3, height: 3)))
        let cache = FactsCache(capacity: 64)
        for i in 0..<1_000 {
            let path = dir + "/\(i).png"
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(try cache.image(at: path).get().header?.width == 3)
            #expect(cache.count <= 64)
            _ = cache.image(at: path)
        }
        #expect(cache.counters.fileReads == 1_000, "the file just read is a hit")
        #expect(cache.count >= 16)
    }

    @Test func rewrittenFileIsReadAgain() throws {
        let path = try tempFile(PNGSynthesizer.encode(PNGSpec(width: 10, height: 10)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = FactsCache()
        #expect(try cache.image(at: path).get().header?.width == 10)
        try Data(PNGSynthesizer.encode(PNGSpec(width: 20, height: 20))).write(to: URL(fileURLWithPath: path))
        #expect(try cache.image(at: path).get().header?.width == 20)
        #expect(cache.counters.fileReads == 2)
    }

    @Test func missingAndUnreadableFilesAreErrorsNotCrashes() throws {
        let cache = FactsCache()
        guard case .failure(let missing) = cache.image(at: "/nonexistent/x.png") else { Issue.record("expected failure"); return }
        #expect(missing.isNotFound)
        if getuid() != 0 {
            let path = try tempFile([1, 2, 3])
            defer { try? FileManager.default.removeItem(atPath: path) }
            chmod(path, 0)
            guard case .failure(let denied) = cache.image(at: path) else { Issue.record("expected failure"); return }
            #expect(denied.isPermissionDenied)
        }
    }
}
