import Foundation
import ProjectModel
import SystemCalls
import TestSupport
import Testing

/// The copy-free path helpers that rules' `applies(to:)` use for every subject agree with the
/// copying ones, including on names that are not ASCII.
@Suite struct RelativePathTests {
    @Test(arguments: ["", "a", "a/b", "A/B.imageset/c.png", "/x", "x/", "Ic\u{F4}ne/\u{1F600}.PNG"])
    func slicesAgreeWithCopies(_ path: String) {
        for other in ["", "b", "Ic\u{F4}ne", "\u{1F600}/x", "x\u{10FFAF}", String(repeating: "long/", count: 10)] {
            #expect(RelativePath.join(other, path) == (other.isEmpty ? path : path.isEmpty ? other : other + "/" + path))
            #expect(
                RelativePath.join(path, other).utf8.elementsEqual((path.isEmpty ? other : other.isEmpty ? path : path + "/" + other).utf8))
        }
        #expect(String(RelativePath.parentSlice(path)) == RelativePath.parent(path))
        #expect(String(RelativePath.nameSlice(path)) == RelativePath.name(path))
        #expect(String(RelativePath.nameSlice(RelativePath.parentSlice(path))) == RelativePath.name(RelativePath.parent(path)))
    }

    /// The byte searches over a string's storage find what the generic collection searches find,
    /// on slices that start and end inside a larger string, and on text that is not ASCII
    /// (U+10FFxx: how a name's bytes that are not UTF-8 are held, 0x2F among them).
    @Test(arguments: ["", "/", "a/b/c", "Ic\u{F4}ne/\u{1F600}.PNG/x", "abc", "a//b", "\u{1F600}/", "x\u{10FFAF}/\u{10FF2F}.png"])
    func byteSearchesAgreeWithGenericOnes(_ text: String) {
        let padded = "q/" + text + "/.z"
        let utf8 = padded.utf8
        for start in 0...utf8.count {
            for end in start...utf8.count {
                let slice = padded[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
                for byte in [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "q")] {
                    #expect(RelativePath.lastIndex(of: byte, in: slice) == slice.utf8.lastIndex(of: byte))
                }
            }
        }
        for byte in [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "q")] {
            #expect(RelativePath.lastOffset(of: byte, in: padded) == Array(utf8).lastIndex(of: byte))
        }
        #expect(RelativePath.contains("/.reswatch", in: text + "/.reswatch/r.yaml"))
        #expect(RelativePath.contains("/.reswatch", in: "\u{1F600}/.reswatch"))
        #expect(!RelativePath.contains("/.reswatch", in: text.replacingOccurrences(of: "/", with: "")))
        #expect(!RelativePath.contains("/.reswatch", in: "/.reswatc"), "the needle is longer than what is left")
        #expect(RelativePath.contains("", in: text))
    }

    @Test func caseInsensitivePrefixAndSuffixAreASCIIOnlyAndNeverReadPastTheEnd() {
        #expect(RelativePath.hasPrefix("ICON-60@2x.png", "icon", ignoringCase: true))
        #expect(RelativePath.hasPrefix("iTunesArtwork@2x", "itunesartwork", ignoringCase: true))
        #expect(!RelativePath.hasPrefix("ico", "icon", ignoringCase: true), "shorter than the prefix")
        #expect(!RelativePath.hasPrefix("\u{130}con.png", "icon", ignoringCase: true), "İ is not an ASCII I")
        #expect(RelativePath.hasSuffix("A.PNG", ".png", ignoringCase: true))
        #expect(!RelativePath.hasSuffix("png", ".png", ignoringCase: true))
        #expect(!RelativePath.hasSuffix("a.pn\u{E9}", ".png", ignoringCase: true))
        #expect(RelativePath.hasPrefix("anything", "", ignoringCase: true))
    }

    /// The byte tests on names agree with the same tests on the bytes copied out, on slices that
    /// start and end inside a larger string, with and without ASCII case.
    @Test(arguments: ["", "a.png", "A.PNG", "Icon.png", "x.Default.png", "\u{1F600}.png", "png", ".png\u{301}", "x\u{10FF2E}png"])
    func nameTestsAgreeWithCopiedBytes(_ text: String) {
        let padded = "q/" + text + "/.z"
        let utf8 = padded.utf8
        func lowered(_ bytes: [UInt8]) -> [UInt8] { bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 } }
        for start in 0...utf8.count {
            for end in start...utf8.count {
                let slice = padded[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
                let bytes = Array(slice.utf8)
                let png = Array(".png".utf8)
                #expect(RelativePath.hasSuffix(slice, ".png") == bytes.reversed().starts(with: png.reversed()))
                #expect(RelativePath.hasSuffix(slice, ".png", ignoringCase: true) == lowered(bytes).reversed().starts(with: png.reversed()))
                #expect(RelativePath.hasPrefix(slice, "x.") == bytes.starts(with: Array("x.".utf8)))
                #expect(RelativePath.equals(slice, "a.png", ignoringCase: true) == (lowered(bytes) == Array("a.png".utf8)))
                let found =
                    bytes.count >= 7 && (0...(bytes.count - 7)).contains { lowered(Array(bytes[$0..<$0 + 7])) == Array("default".utf8) }
                #expect(RelativePath.contains("default", in: slice, ignoringCase: true) == found)
            }
        }
    }

    /// A name and a parent found on a path's bytes are the bytes of `nameSlice` and
    /// `parentSlice`, for paths with and without slashes, with empty parts, and with characters
    /// beyond ASCII and bytes that are not UTF-8 (held as U+10FFxx).
    @Test(arguments: [
        "", "a", "/", "a/", "/a", "a/b", "a//b", "Assets.xcassets/AppIcon.appiconset/Icon-60@2x.png", "\u{1F600}/\u{301}x",
        "x\u{10FF2E}y/z\u{10FF80}", "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w.png",
    ])
    func namesAndParentsOnBytesAreTheSlices(_ path: String) {
        RelativePath.withBytes(of: path) { bytes in
            #expect(Array(RelativePath.name(in: bytes)) == Array(RelativePath.nameSlice(path).utf8))
            #expect(Array(RelativePath.parent(in: bytes)) == Array(RelativePath.parentSlice(path).utf8))
            let parentName = RelativePath.name(in: RelativePath.parent(in: bytes))
            #expect(Array(parentName) == Array(RelativePath.nameSlice(RelativePath.parentSlice(path)).utf8))
            #expect(RelativePath.hasSuffix(bytes, ".png") == RelativePath.hasSuffix(path, ".png"))
            #expect(RelativePath.hasPrefix(bytes, "a/", ignoringCase: true) == RelativePath.hasPrefix(path, "a/", ignoringCase: true))
        }
    }

    /// `isWithin` compares bytes without building `dir + "/"`; it answers as the string
    /// comparison did, for names that are not ASCII too (precomposed and decomposed accents,
    /// emoji, bytes that are not UTF-8), on whole path segments only.
    @Test func isWithinAgreesWithTheStringComparison() {
        let paths = [
            "", "a", "ab", "a/b", "a/b/c", "ab/c", "a/", "Caf\u{E9}/x", "Cafe\u{301}/x", "Caf\u{E9}", "\u{1F600}/a", "x\u{10FFFF}/y",
            "App/Info.plist", "App/Resources/Assets.xcassets", "Apps/Info.plist",
        ]
        for p in paths {
            for dir in paths {
                let old = dir.isEmpty || p == dir || p.hasPrefix(dir + "/")
                #expect(RelativePath.isWithin(p, dir) == old, "\(p.debugDescription) within \(dir.debugDescription)")
            }
        }
        #expect(RelativePath.isWithin("App/Resources/x.png", "App"))
        #expect(!RelativePath.isWithin("Apps/x.png", "App"), "a longer name is not a folder below")
    }

    /// Random paths of ASCII letters, slashes, precomposed and decomposed accents and combining
    /// marks: where the bytes part at ASCII, the answer is no without Swift's comparison, and
    /// it is the comparison's answer for every pair (a slash starting a path segment is not
    /// followed by a combining mark here: that one the byte check has always answered yes).
    @Test func isWithinAgreesOnRandomMixedPaths() {
        var rng = SeededGenerator(seed: 63)
        let pieces = ["a", "b", "e", "/", "\u{E9}", "e\u{301}", "\u{301}", "\u{1F600}", "A"]
        func random() -> String {
            var out = ""
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let piece = pieces.randomElement(using: &rng)!
                if piece.unicodeScalars.first!.properties.generalCategory == .nonspacingMark, out.hasSuffix("/") || out.isEmpty { continue }
                out += piece
            }
            return out
        }
        for _ in 0..<20_000 {
            let p = random()
            let dir = Bool.random(using: &rng) ? random() : String(p.prefix(Int.random(in: 0...p.count, using: &rng)))
            let old = dir.isEmpty || p == dir || p.hasPrefix(dir + "/")
            #expect(RelativePath.isWithin(p, dir) == old, "\(p.debugDescription) within \(dir.debugDescription)")
        }
    }

    /// Looking a path's folders up in a set answers as `isWithin` against every member.
    @Test func withinAnyAnswersAsWithinEach() {
        var rng = SeededGenerator(seed: 6302)
        let parts = ["a", "b", "A", "\u{E9}", "e\u{301}", "e", "x.swift", "", "Sources"]
        func path() -> String {
            (0..<Int.random(in: 0...4, using: &rng)).map { _ in parts.randomElement(using: &rng)! }.joined(separator: "/")
        }
        for _ in 0..<3000 {
            let folders = (0..<Int.random(in: 0...4, using: &rng)).map { _ in path() }
            let probe = path()
            #expect(
                RelativePath.isWithinAny(probe, of: Set(folders)) == folders.contains { RelativePath.isWithin(probe, $0) },
                "\(probe.debugDescription) in \(folders)")
        }
    }
}
