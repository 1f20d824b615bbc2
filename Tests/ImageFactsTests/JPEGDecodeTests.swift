import Foundation
import ImageFacts
import TestSupport
import Testing

/// JPEG decoding (libjpeg-turbo through CJPEGShim), for the repair that re-encodes a JPEG under a
/// `.png` name: the pixels Debian's `djpeg` gets; damaged or hostile data a failure, never a crash
/// nor a picture made up where the data ran out.
@Suite struct JPEGDecodeTests {
    @Test func thePixelsAreDjpegs() throws {
        let jpeg = try makeJPEG(width: 67, height: 45)
        let image = try RGBAImage.decodeJPEG(jpeg).get()
        #expect(image.width == 67 && image.height == 45 && image.isOpaque)
        let dir = try TempTree()
        try Data(jpeg).write(to: URL(fileURLWithPath: dir.path + "/a.jpg"))
        let reference = try runCommand("/usr/bin/djpeg", ["-pnm", "-outfile", dir.path + "/a.ppm", dir.path + "/a.jpg"])
        #expect(reference.status == 0)
        let ppm = Array(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/a.ppm")))
        let header = Array("P6\n67 45\n255\n".utf8)
        #expect(Array(ppm.prefix(header.count)) == header)
        let rgb = stride(from: 0, to: image.pixels.count, by: 4).flatMap { image.pixels[$0..<$0 + 3] }
        #expect(rgb == Array(ppm.dropFirst(header.count)), "the same pixels as djpeg")
    }

    @Test func damagedAndHostileDataFails() throws {
        let jpeg = try makeJPEG(width: 64, height: 64)
        for cut in stride(from: 2, to: jpeg.count - 2, by: max(1, jpeg.count / 12)) {
            guard case .failure = RGBAImage.decodeJPEG(Array(jpeg.prefix(cut))) else {
                Issue.record("a JPEG cut at \(cut) of \(jpeg.count) bytes was decoded")
                continue
            }
        }
        // A frame header claiming 65500x65500: refused before any pixel memory is taken.
        var huge = jpeg
        if let sof = (0..<huge.count - 9).first(where: { huge[$0] == 0xFF && (huge[$0 + 1] == 0xC0 || huge[$0 + 1] == 0xC2) }) {
            huge.replaceSubrange(sof + 5..<sof + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
        }
        guard case .failure(let tooLarge) = RGBAImage.decodeJPEG(huge) else { throw CancellationError() }
        #expect(tooLarge.description.contains("larger than the decode limit"), "\(tooLarge)")
        guard case .failure(let notJPEG) = RGBAImage.decodeJPEG(PNGSynthesizer.encode(PNGSpec(width: 4, height: 4))) else {
            throw CancellationError()
        }
        #expect(notJPEG.description.contains("no JPEG start-of-image marker"))
        for bytes in [[], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0xFF, count: 4096)] as [[UInt8]] {
            guard case .failure = RGBAImage.decodeJPEG(bytes) else {
                Issue.record("\(bytes.count) bytes of nothing decoded")
                continue
            }
        }
        // Every byte flipped in turn: a failure or a picture of the right size, never a crash.
        for i in stride(from: 0, to: jpeg.count, by: 7) {
            var flipped = jpeg
            flipped[i] ^= 0x5A
            if case .success(let image) = RGBAImage.decodeJPEG(flipped) { #expect(image.pixels.count == image.width * image.height * 4) }
        }
    }

    /// A progressive JPEG decodes; one with more scans than allowed is stopped while it is read
    /// (thousands of scans make libjpeg take minutes), and says why.
    @Test func scansAreBounded() throws {
        let jpeg = try makeJPEG(width: 40, height: 30, progressive: true)
        #expect((try? RGBAImage.decodeJPEG(jpeg).get())?.width == 40)
        guard case .failure(let failure) = RGBAImage.decodeJPEG(jpeg, maximumScans: 2) else {
            Issue.record("a JPEG of more scans than allowed was decoded")
            return
        }
        #expect(failure.description == "more than 2 scans (a progressive JPEG made to be slow)")
    }
}
