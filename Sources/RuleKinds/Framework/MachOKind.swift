/// What a framework's binary is, from its first bytes: a dynamic library is embedded in the app
/// (`X.app/Frameworks/`), a static one (an `ar` archive or an object file) is linked into the app's
/// binary and its bundle ships nowhere. Every offset is checked against the bytes there are: a
/// binary is hostile input like any file of the tree.
enum MachOKind: Sendable, Equatable {
    /// With the iOS minimum its load commands give (`LC_BUILD_VERSION` for iOS devices, or
    /// `LC_VERSION_MIN_IPHONEOS`), when they give one.
    case dynamic(minimumIOS: String?)
    case staticLibrary
    case unknown(String)

    static func of(_ bytes: [UInt8]) -> MachOKind { of(bytes[...], insideFat: false) }

    private static func of(_ bytes: ArraySlice<UInt8>, insideFat: Bool) -> MachOKind {
        let base = bytes.startIndex
        func u32(_ at: Int, bigEndian: Bool) -> UInt32? {
            guard at >= 0, at <= bytes.count - 4 else { return nil }
            let b = (0..<4).map { UInt32(bytes[base + at + $0]) }
            return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
        }
        guard bytes.count >= 8 else { return .unknown("it is shorter than a Mach-O header") }
        if bytes.starts(with: Array("!<arch>\n".utf8)) { return .staticLibrary }
        switch u32(0, bigEndian: false) {
        case 0xFEED_FACF, 0xFEED_FACE:
            // filetype: MH_DYLIB (6) is embedded; MH_OBJECT (1) is a static object.
            switch u32(12, bigEndian: false) {
            case 6?: return .dynamic(minimumIOS: minimumIOS(bytes, headerSize: u32(0, bigEndian: false) == 0xFEED_FACF ? 32 : 28))
            case 1?: return .staticLibrary
            case let t?: return .unknown("its Mach-O file type is \(t), not a library")
            case nil: return .unknown("its Mach-O header is cut short")
            }
        case 0xBEBA_FECA, 0xBFBA_FECA:
            // A universal binary: its first slice says which (the slices of one are one kind).
            guard !insideFat, let count = u32(4, bigEndian: true), (1...64).contains(count) else {
                return .unknown("its fat header lists no usable slice")
            }
            let offset: UInt32?
            if bytes[base + 3] == 0xBF {
                offset = u32(16, bigEndian: true) == 0 ? u32(20, bigEndian: true) : nil  // fat_arch_64: a 64-bit offset
            } else {
                offset = u32(16, bigEndian: true)
            }
            guard let offset, offset >= 8, Int(offset) < bytes.count - 8 else { return .unknown("its first slice lies outside the file") }
            return of(bytes[(base + Int(offset))...], insideFat: true)
        default:
            return .unknown("it is not a Mach-O binary")
        }
    }

    /// The iOS minimum of a Mach-O slice's load commands ("13.0"), nil when none says one. At most
    /// 1,024 commands within the bytes there are.
    private static func minimumIOS(_ bytes: ArraySlice<UInt8>, headerSize: Int) -> String? {
        let base = bytes.startIndex
        func u32(_ at: Int) -> UInt32? {
            guard at >= 0, at <= bytes.count - 4 else { return nil }
            return (0..<4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[base + at + $1]) }
        }
        guard let count = u32(16) else { return nil }
        var offset = headerSize
        for _ in 0..<min(Int(count), 1024) {
            guard let command = u32(offset), let size = u32(offset + 4), size >= 8 else { return nil }
            // LC_BUILD_VERSION (0x32) with platform iOS (2); LC_VERSION_MIN_IPHONEOS (0x25).
            if command == 0x32, u32(offset + 8) == 2, let version = u32(offset + 12) { return text(version) }
            if command == 0x25, let version = u32(offset + 8) { return text(version) }
            offset += Int(size)
        }
        return nil
    }

    /// xxxx.yy.zz nibbles: 0x000D0000 is 13.0, 0x00110200 is 17.2.
    static func text(_ version: UInt32) -> String {
        let patch = version & 0xFF
        return "\(version >> 16).\((version >> 8) & 0xFF)" + (patch == 0 ? "" : ".\(patch)")
    }

    /// The header and one `LC_BUILD_VERSION` of an arm64 iOS dynamic library (for examples and tests).
    static func example(minimumIOS version: (UInt32, UInt32), filetype: UInt32 = 6) -> [UInt8] {
        func le(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        let command = le(0x32) + le(24) + le(2) + le(version.0 << 16 | version.1 << 8) + le(version.0 << 16) + le(0)
        return le(0xFEED_FACF) + le(0x0100_000C) + le(0) + le(filetype) + le(1) + le(UInt32(command.count)) + le(0) + le(0) + command
    }
}
