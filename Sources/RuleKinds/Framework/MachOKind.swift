/// What a framework's binary is, from its first bytes: a dynamic library is embedded in the app
/// (`X.app/Frameworks/`), a static one (an `ar` archive or an object file) is linked into the app's
/// binary and its bundle ships nowhere. Every offset is checked against the bytes there are: a
/// binary is hostile input like any file of the tree.
enum MachOKind: Sendable, Equatable {
    case dynamic
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
            case 6?: return .dynamic
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
}
