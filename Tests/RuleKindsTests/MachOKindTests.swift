import Testing

@testable import RuleKinds

/// A framework's binary tells whether the app embeds it; it is hostile input: any bytes give an
/// answer, never a crash or a read past the end.
@Suite struct MachOKindTests {
    static func header(filetype: UInt8) -> [UInt8] {
        [0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0, 0, 0x01, 0, 0, 0, 0, filetype, 0, 0, 0] + Array(repeating: 0, count: 16)
    }

    /// A universal binary (32-bit fat header) whose one slice, at `offset`, is `slice`.
    static func fat(_ slice: [UInt8], offset: UInt32 = 64, count: UInt8 = 1) -> [UInt8] {
        var bytes: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, count, 0, 0, 0x01, 0x0C, 0, 0, 0, 0]
        bytes += [UInt8(offset >> 24), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
        bytes += Array(repeating: 0, count: max(0, Int(offset) - bytes.count))
        return bytes + slice
    }

    @Test func libraryKinds() {
        #expect(MachOKind.of(Self.header(filetype: 6)) == .dynamic(minimumIOS: nil))
        #expect(MachOKind.of(Self.header(filetype: 1)) == .staticLibrary)
        #expect(MachOKind.of(Array("!<arch>\nfoo.o/          ".utf8)) == .staticLibrary)
        #expect(MachOKind.of(Self.fat(Self.header(filetype: 6))) == .dynamic(minimumIOS: nil))
        #expect(MachOKind.of(MachOKind.example(minimumIOS: (17, 2))) == .dynamic(minimumIOS: "17.2"))
        #expect(MachOKind.of(Self.fat(MachOKind.example(minimumIOS: (13, 0)))) == .dynamic(minimumIOS: "13.0"))
        #expect(MachOKind.of(Self.fat(Array("!<arch>\n".utf8) + Array(repeating: 0x20, count: 60))) == .staticLibrary)
        if case .unknown = MachOKind.of(Self.header(filetype: 2)) {} else { Issue.record("an executable is no library") }
    }

    @Test func hostileBytesGiveAnAnswer() {
        let cases: [[UInt8]] = [
            [], [0xCF, 0xFA, 0xED], Array(Self.header(filetype: 6).prefix(12)),
            // The slice lies past the end.
            [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 1, 0, 0, 0x01, 0x0C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xF0] + Self.header(filetype: 6),
            Self.fat(Self.header(filetype: 6), count: 0), Self.fat(Self.header(filetype: 6), count: 200),
            Self.fat(Self.fat(Self.header(filetype: 6))),  // a fat binary inside a fat binary: not followed
            [0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 1] + Array(repeating: 0xFF, count: 24),  // fat_arch_64 with a huge offset
            Array(repeating: 0xCA, count: 4096),
        ]
        for bytes in cases {
            if case .unknown = MachOKind.of(bytes) {} else { Issue.record("\(bytes.prefix(16)) was taken for a library") }
        }
        // Load commands that lie about their count or size end the search, never read past the end.
        var lying = MachOKind.example(minimumIOS: (13, 0))
        lying.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0, 0])  // 65,535 commands
        lying.replaceSubrange(36..<40, with: [0xFF, 0xFF, 0xFF, 0x7F])  // a command larger than the file
        _ = MachOKind.of(lying)
        lying.replaceSubrange(32..<36, with: [0x01, 0, 0, 0])  // not LC_BUILD_VERSION
        #expect(MachOKind.of(lying) == .dynamic(minimumIOS: nil))
        // Random bytes never crash the reader.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = (0..<Int.random(in: 0..<96, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.count >= 4, Bool.random(using: &generator) { bytes.replaceSubrange(0..<4, with: [0xCA, 0xFE, 0xBA, 0xBE]) }
            _ = MachOKind.of(bytes)
        }
    }
}
