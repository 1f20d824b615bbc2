import ProjectModel
import SystemCalls
import Testing

/// The copy-free path helpers that rules' `applies(to:)` use for every subject agree with the
/// copying ones, including on names that are not ASCII.
@Suite struct RelativePathTests {
    @Test(arguments: ["", "a", "a/b", "A/B.imageset/c.png", "/x", "x/", "Ic\u{F4}ne/\u{1F600}.PNG"])
    func slicesAgreeWithCopies(_ path: String) {
        #expect(String(RelativePath.parentSlice(path)) == RelativePath.parent(path))
        #expect(String(RelativePath.nameSlice(path)) == RelativePath.name(path))
        #expect(String(RelativePath.nameSlice(RelativePath.parentSlice(path))) == RelativePath.name(RelativePath.parent(path)))
    }

    @Test func caseInsensitivePrefixAndSuffixAreASCIIOnlyAndNeverReadPastTheEnd() {
        #expect(RelativePath.hasPrefixIgnoringCase("ICON-60@2x.png", "icon"))
        #expect(RelativePath.hasPrefixIgnoringCase("iTunesArtwork@2x", "itunesartwork"))
        #expect(!RelativePath.hasPrefixIgnoringCase("ico", "icon"), "shorter than the prefix")
        #expect(!RelativePath.hasPrefixIgnoringCase("\u{130}con.png", "icon"), "İ is not an ASCII I")
        #expect(RelativePath.hasSuffixIgnoringCase("A.PNG", ".png"))
        #expect(!RelativePath.hasSuffixIgnoringCase("png", ".png"))
        #expect(!RelativePath.hasSuffixIgnoringCase("a.pn\u{E9}", ".png"))
        #expect(RelativePath.hasPrefixIgnoringCase("anything", ""))
    }
}
