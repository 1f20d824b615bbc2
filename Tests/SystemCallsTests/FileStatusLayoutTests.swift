import SystemCalls
import Testing

/// The tree keeps one FileStatus per file: adding `group` must not grow it (it fits the padding).
@Suite struct FileStatusLayoutTests {
    @Test func oneFileStatusIs48Bytes() {
        #expect(MemoryLayout<FileStatus>.stride == 48)
    }
}
