/// A lexical scan of Swift, Objective-C and C source for Apple's required-reason APIs: identifiers
/// only, never inside comments, string or character literals. It is a heuristic (App Store
/// Connect scans the binary's symbols): C functions count only when called (`stat(`), and file
/// attribute names (`creationDate`) only as members (`.creationDate`), so a type's own
/// `creationDate` property or `struct stat` is not a use. Sources: "Describing use of required
/// reason API" (Apple's API lists), stelabouras/privacy-manifest's APIS_TO_CHECK, through
/// Privacy manifests (docs/sources.md).
enum RequiredReasonScan {
    /// The first use of each category in one file: category → (line, identifier).
    struct Uses: Sendable, Hashable {
        var first: [String: Use] = [:]
    }

    struct Use: Sendable, Hashable {
        let line: Int
        let identifier: String
    }

    enum Form { case any, call, member }

    static let fileTimestamp = "NSPrivacyAccessedAPICategoryFileTimestamp"
    static let bootTime = "NSPrivacyAccessedAPICategorySystemBootTime"
    static let diskSpace = "NSPrivacyAccessedAPICategoryDiskSpace"
    static let keyboards = "NSPrivacyAccessedAPICategoryActiveKeyboards"
    static let defaults = "NSPrivacyAccessedAPICategoryUserDefaults"

    /// Identifier → (how it must be used, the categories it belongs to).
    static let apis: [String: (Form, [String])] = [
        "creationDate": (.member, [fileTimestamp]), "modificationDate": (.member, [fileTimestamp]),
        "fileModificationDate": (.any, [fileTimestamp]), "contentModificationDateKey": (.member, [fileTimestamp]),
        "creationDateKey": (.member, [fileTimestamp]), "NSFileCreationDate": (.any, [fileTimestamp]),
        "NSFileModificationDate": (.any, [fileTimestamp]), "NSURLCreationDateKey": (.any, [fileTimestamp]),
        "NSURLContentModificationDateKey": (.any, [fileTimestamp]),
        "getattrlist": (.call, [fileTimestamp, diskSpace]), "fgetattrlist": (.call, [fileTimestamp, diskSpace]),
        "getattrlistat": (.call, [fileTimestamp, diskSpace]), "getattrlistbulk": (.call, [fileTimestamp]),
        "stat": (.call, [fileTimestamp]), "fstat": (.call, [fileTimestamp]), "fstatat": (.call, [fileTimestamp]),
        "lstat": (.call, [fileTimestamp]),
        "systemUptime": (.any, [bootTime]), "mach_absolute_time": (.call, [bootTime]),
        "volumeAvailableCapacityKey": (.any, [diskSpace]), "volumeAvailableCapacityForImportantUsageKey": (.any, [diskSpace]),
        "volumeAvailableCapacityForOpportunisticUsageKey": (.any, [diskSpace]), "volumeTotalCapacityKey": (.any, [diskSpace]),
        "NSURLVolumeAvailableCapacityKey": (.any, [diskSpace]), "NSURLVolumeAvailableCapacityForImportantUsageKey": (.any, [diskSpace]),
        "NSURLVolumeAvailableCapacityForOpportunisticUsageKey": (.any, [diskSpace]), "NSURLVolumeTotalCapacityKey": (.any, [diskSpace]),
        "systemFreeSize": (.member, [diskSpace]), "systemSize": (.member, [diskSpace]), "NSFileSystemFreeSize": (.any, [diskSpace]),
        "NSFileSystemSize": (.any, [diskSpace]), "statfs": (.call, [diskSpace]), "statvfs": (.call, [diskSpace]),
        "fstatfs": (.call, [diskSpace]), "fstatvfs": (.call, [diskSpace]),
        "activeInputModes": (.any, [keyboards]),
        "UserDefaults": (.any, [defaults]), "NSUserDefaults": (.any, [defaults]), "AppStorage": (.any, [defaults]),
    ]

    static func scan(_ bytes: [UInt8]) -> Uses {
        var lexer = ReasonLexer(bytes: bytes)
        while lexer.i < bytes.count {
            let b = bytes[lexer.i]
            if b == 0x0A {
                lexer.line += 1
                lexer.i += 1
            } else if b == 0x2F, lexer.byte(lexer.i + 1) == 0x2F {  // line comment
                while lexer.i < bytes.count, bytes[lexer.i] != 0x0A { lexer.i += 1 }
            } else if b == 0x2F, lexer.byte(lexer.i + 1) == 0x2A {
                lexer.skipBlockComment()
            } else if b == 0x22 || b == 0x27 {
                lexer.skipLiteral(quote: b)
            } else if isIdentifierStart(b) {
                lexer.identifier()
            } else {
                lexer.punctuation(b)
            }
        }
        return lexer.uses
    }

    /// Where the scan is in one file, and what it has found.
    struct ReasonLexer {
        let bytes: [UInt8]
        var uses = Uses()
        var i = 0
        var line = 1
        var previous: UInt8 = 0  // the last significant byte before the current token
        var beforePrevious: UInt8 = 0  // the one before it (what precedes a `.`)
        var lastIdentifier = ""  // the identifier that ended at `previous`, if one did
        var dotAfter = ""  // at a `.`: the identifier just before it

        func byte(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }

        /// A block comment (Swift nests them).
        mutating func skipBlockComment() {
            var depth = 1
            i += 2
            while i < bytes.count, depth > 0 {
                if bytes[i] == 0x0A { line += 1 }
                if bytes[i] == 0x2F, byte(i + 1) == 0x2A {
                    depth += 1
                    i += 1
                } else if bytes[i] == 0x2A, byte(i + 1) == 0x2F {
                    depth -= 1
                    i += 1
                }
                i += 1
            }
        }

        /// A string or character literal (""" … """ too).
        mutating func skipLiteral(quote: UInt8) {
            let triple = quote == 0x22 && byte(i + 1) == 0x22 && byte(i + 2) == 0x22
            i += triple ? 3 : 1
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x0A { line += 1 }
                if c == 0x5C {
                    if byte(i + 1) == 0x0A { line += 1 }
                    i += 2
                    continue
                }
                if triple {
                    if c == 0x22, byte(i + 1) == 0x22, byte(i + 2) == 0x22 {
                        i += 3
                        break
                    }
                } else if c == quote || c == 0x0A {
                    i += 1
                    break
                }
                i += 1
            }
            previous = quote
        }

        /// An identifier: a use when it names a required-reason API in the form that counts.
        mutating func identifier() {
            let start = i
            while i < bytes.count, RequiredReasonScan.isIdentifierByte(bytes[i]) { i += 1 }
            var j = i
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
            // Called with arguments: `stat(path, &st)`, not Swift's `stat()` (the struct's init).
            var k = j + 1
            while k < bytes.count, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
            let called = byte(j) == 0x28
            let noArguments = byte(k) == 0x29
            let before = previous
            // `.name` of an attribute key: an implicit member (`attrs[.creationDate]`,
            // `forKey: .creationDate`) or spelled on its type (`FileAttributeKey.creationDate`);
            // `post.creationDate` is a model's own property. `dotAfter` is the identifier
            // before the `.`, if one stood there.
            let member =
                previous == 0x2E
                && (RequiredReasonScan.implicitMemberBytes.contains(beforePrevious) || RequiredReasonScan.attributeTypes.contains(dotAfter)
                    || RequiredReasonScan.implicitMemberKeywords.contains(dotAfter))
            let name = i - start <= 48 ? String(decoding: bytes[start..<i], as: UTF8.self) : ""
            beforePrevious = previous
            previous = bytes[i - 1]
            lastIdentifier = name
            dotAfter = ""
            guard let (form, categories) = RequiredReasonScan.apis[name] else { return }
            let matches: Bool
            switch form {
            case .any: matches = true
            // `stat(`, not `x.stat(`; and `stat()` with nothing inside is the struct, not the call.
            case .call: matches = called && before != 0x2E && !(noArguments && RequiredReasonScan.structNames.contains(name))
            case .member: matches = member
            }
            guard matches else { return }
            for category in categories where uses.first[category] == nil { uses.first[category] = Use(line: line, identifier: name) }
        }

        /// Any other byte: whitespace is skipped; the rest is remembered as what precedes.
        mutating func punctuation(_ b: UInt8) {
            if b != 0x20, b != 0x09, b != 0x0D {
                dotAfter = b == 0x2E ? lastIdentifier : ""
                lastIdentifier = ""
                beforePrevious = previous
                previous = b
            }
            i += 1
        }
    }

    /// What may stand before an implicit member's `.`: `[`, `(`, `,`, `:`, `=`, `{`, `?`, `!`, `&`, `|`.
    static let implicitMemberBytes: Set<UInt8> = [0x5B, 0x28, 0x2C, 0x3A, 0x3D, 0x7B, 0x3F, 0x21, 0x26, 0x7C]
    /// C structs named like the functions that fill them (`var st = stat()` in Swift).
    static let structNames: Set<String> = ["stat", "statfs", "statvfs"]
    static let implicitMemberKeywords: Set<String> = ["return", "case", "in", "where"]
    static let attributeTypes: Set<String> = ["FileAttributeKey", "URLResourceKey", "URLResourceValues"]

    static func isIdentifierStart(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }
    static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) || b >= 0x80 }
}
