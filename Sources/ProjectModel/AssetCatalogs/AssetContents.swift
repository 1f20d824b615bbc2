import Foundation
import SystemCalls

/// One entry of an asset set's `images` array (app icon, image or launch image set).
public struct AssetImageEntry: Sendable, Hashable {
    public var filename: String?
    public var idiom: String?
    public var size: String?
    public var scale: String?
    public var platform: String?
    public var role: String?
    public var subtype: String?
    public var orientation: String?
    public var extent: String?
    public var minimumSystemVersion: String?
    /// e.g. ["luminosity:dark"], ["luminosity:tinted"]
    public var appearances: [String]
    /// 1-based line of the entry in Contents.json, when known.
    public var line: Int?

    public init(
        filename: String? = nil, idiom: String? = nil, size: String? = nil, scale: String? = nil,
        platform: String? = nil, role: String? = nil, subtype: String? = nil, orientation: String? = nil,
        extent: String? = nil, minimumSystemVersion: String? = nil, appearances: [String] = [], line: Int? = nil
    ) {
        self.filename = filename
        self.idiom = idiom
        self.size = size
        self.scale = scale
        self.platform = platform
        self.role = role
        self.subtype = subtype
        self.orientation = orientation
        self.extent = extent
        self.minimumSystemVersion = minimumSystemVersion
        self.appearances = appearances
        self.line = line
    }

    /// "60x60" → (60, 60); "83.5x83.5" → (83.5, 83.5).
    public var points: (width: Double, height: Double)? {
        guard let size else { return nil }
        // The two runs between "x"s (either case; empty runs skipped, as `split` did), found on
        // the bytes: `split` by `Character` and `Double(_:)` were 3,300 instructions an entry.
        // Kept in two variables, not an array (allocated for every entry of every set).
        var runs = (0..<0, 0..<0)
        var count = 0
        let quick: (Double, Double)? = RelativePath.withBytes(of: size) { bytes in
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "x") || bytes[i] == UInt8(ascii: "X") {
                if i > start {
                    if count == 0 { runs.0 = start..<i } else if count == 1 { runs.1 = start..<i }
                    count += 1
                }
                start = i + 1
            }
            guard count == 2, let w = Self.plainDecimal(UnsafeBufferPointer(rebasing: bytes[runs.0])),
                let h = Self.plainDecimal(UnsafeBufferPointer(rebasing: bytes[runs.1]))
            else { return nil }
            return (w, h)
        }
        guard count == 2 else { return nil }
        func slice(_ r: Range<Int>) -> Substring {
            size[
                size.utf8.index(
                    size.utf8.startIndex, offsetBy: r.lowerBound)..<size.utf8.index(size.utf8.startIndex, offsetBy: r.upperBound)]
        }
        // "1e19x1e19", "infxinf": not a size (a slot is at most a few thousand points).
        let limit = Double(CheckedNumber.maximumPixels)
        guard let w = quick?.0 ?? Double(slice(runs.0)), let h = quick?.1 ?? Double(slice(runs.1)), w.isFinite, h.isFinite, w > 0,
            h > 0, w <= limit, h <= limit
        else { return nil }
        return (w, h)
    }

    /// Digits with at most one "." between them ("60", "83.5"), 15 digits at most, as `Double(_:)`
    /// reads them: the digits as an integer over a power of ten, both exact in a Double, so the
    /// quotient is the correctly rounded value the parser gives. Nil for anything else (signs,
    /// exponents, "inf", more digits), which `Double(_:)` reads instead.
    static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = -1
        for b in bytes {
            if b == UInt8(ascii: "."), fraction < 0, digits > 0 {
                fraction = 0
                continue
            }
            guard b &- UInt8(ascii: "0") < 10, digits < 15 else { return nil }
            mantissa = mantissa * 10 + Int64(b &- UInt8(ascii: "0"))
            digits += 1
            if fraction >= 0 { fraction += 1 }
        }
        guard digits > 0, fraction != 0 else { return nil }  // "" or "60."
        return Double(mantissa) / powersOfTen[max(fraction, 0)]
    }

    static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// "2x" → 2. A missing scale means 1x (single-size icons have none).
    public var scaleFactor: Int? {
        guard let scale else { return 1 }
        // "1x", "2x", "3x" on their bytes; anything else ("+2x", "02x") as `Int` reads it.
        let quick: Int? = RelativePath.withBytes(of: scale[...]) { b in
            b.count == 2 && b[1] == UInt8(ascii: "x") && (UInt8(ascii: "1")...UInt8(ascii: "3")).contains(b[0])
                ? Int(b[0] - UInt8(ascii: "0")) : nil
        }
        if let quick { return quick }
        guard scale.hasSuffix("x"), let v = Int(scale.dropLast()), (1...3).contains(v) else { return nil }
        return v
    }

    public var appearanceKey: String { appearances.sorted().joined(separator: ",") }
}

/// A parsed Contents.json of an asset set.
public struct AssetContents: Sendable, Hashable {
    public var images: [AssetImageEntry]
    public var hasImagesKey: Bool
}

/// Why Contents.json could not be used.
public enum ContentsError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case invalidJSON(String, line: Int?)
    case wrongShape(String, line: Int?)
    /// The file could not be read (permissions, a FIFO, a link out of the root): not judged.
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .empty: "Contents.json is empty"
        case .invalidJSON(let m, let line): "not valid JSON" + (line.map { " (line \($0))" } ?? "") + ": \(m)"
        case .wrongShape(let m, let line): m + (line.map { " (line \($0))" } ?? "")
        }
    }
    public var line: Int? {
        switch self {
        case .empty, .unreadable: nil
        case .invalidJSON(_, let l), .wrongShape(_, let l): l
        }
    }
}

public enum AssetContentsReader {
    /// `entriesKey`: the array of file entries: "images" (icon, image, launch image sets), "data"
    /// (data sets), "symbols" (symbol image sets).
    public static func parse(_ bytes: [UInt8], entriesKey key: String = "images") -> Result<AssetContents, ContentsError> {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .failure(.empty) }
        // The usual file: its entries read straight from the bytes (ContentsEntries.swift).
        if let direct = StrictContentsJSON.entries(bytes, key: key) {
            return .success(AssetContents(images: direct.entries, hasImagesKey: direct.hasKey))
        }
        let top: ContentsValue
        var entryLines: [Int]?
        if let strict = StrictContentsJSON.parse(bytes, entriesKey: key) {
            (top, entryLines) = (strict.value, strict.entryLines)
        } else {
            // Outside the strict reader's subset (or not JSON): JSONSerialization decides, and says why.
            do {
                top = ContentsValue(foundation: try JSONSerialization.jsonObject(with: Data(bytes), options: []))
            } catch {
                let ns = error as NSError
                let detail = (ns.userInfo["NSDebugDescription"] as? String) ?? ns.localizedDescription
                return .failure(.invalidJSON(detail, line: lineOfCharacterOffset(in: bytes, message: detail)))
            }
        }
        return shape(top, bytes: bytes, key: key, entryLines: entryLines)
    }

    /// The entries of a parsed Contents.json, or what is wrong with its shape.
    /// `entryLines`: where each entry starts, when the reader knew; else found by `lines(ofEntriesIn:)`.
    static func shape(_ top: ContentsValue, bytes: [UInt8], key: String, entryLines known: [Int]? = nil) -> Result<
        AssetContents, ContentsError
    > {
        guard top.isObject else {
            return .failure(.wrongShape("the top level is not a JSON object", line: 1))
        }
        let entryLines = known ?? lines(ofEntriesIn: bytes, key: key)
        guard let rawImages = top[key] else {
            return .success(AssetContents(images: [], hasImagesKey: false))
        }
        guard let list = rawImages.array else {
            return .failure(.wrongShape("\"\(key)\" is not an array", line: lineOf(key: key, in: bytes)))
        }
        var images: [AssetImageEntry] = []
        images.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            let line = index < entryLines.count ? entryLines[index] : nil
            guard item.isObject else {
                return .failure(.wrongShape("\(key)[\(index)] is not an object", line: line))
            }
            func string(_ field: String) throws(ContentsError) -> String? {
                guard let v = item[field] else { return nil }
                guard let s = v.string else { throw .wrongShape("\(key)[\(index)].\(field) is not a string", line: line) }
                return s
            }
            do throws(ContentsError) {
                var appearances: [String] = []
                if let raw = item["appearances"] {
                    guard let list = raw.array else {
                        throw ContentsError.wrongShape("\(key)[\(index)].appearances is not an array", line: line)
                    }
                    for a in list {
                        guard let k = a["appearance"]?.string, let v = a["value"]?.string else {
                            throw ContentsError.wrongShape("\(key)[\(index)].appearances has an entry without appearance/value", line: line)
                        }
                        appearances.append("\(k):\(v)")
                    }
                }
                images.append(
                    AssetImageEntry(
                        filename: try string("filename"), idiom: try string("idiom"), size: try string("size"),
                        scale: try string("scale"), platform: try string("platform"), role: try string("role"),
                        subtype: try string("subtype"), orientation: try string("orientation"),
                        extent: try string("extent"), minimumSystemVersion: try string("minimum-system-version"),
                        appearances: appearances, line: line))
            } catch {
                return .failure(error)
            }
        }
        return .success(AssetContents(images: images, hasImagesKey: true))
    }

    /// "around line 3, column 5" or "around character 15" → 1-based line; a file that ends too
    /// soon ("Unexpected end of file") → its last line that is not blank, where the rest is missing.
    public static func lineOfCharacterOffset(in bytes: [UInt8], message: String) -> Int? {
        if let r = message.range(of: #"line (\d+)"#, options: .regularExpression) { return Int(message[r].dropFirst(5)) }
        if message.lowercased().contains("end of file") {
            let content = bytes.lastIndex { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) } ?? 0
            return 1 + bytes.prefix(content).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        guard let r = message.range(of: #"character (\d+)"#, options: .regularExpression),
            let offset = Int(message[r].dropFirst(10))
        else { return nil }
        return 1 + bytes.prefix(min(offset, bytes.count)).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    static func lineOf(key: String, in bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let r = text.range(of: "\"\(key)\"") else { return nil }
        return 1 + text[..<r.lowerBound].filter { $0 == "\n" }.count
    }

    /// Lines where each object of the `key` array starts (a light scan that knows about strings).
    /// Over the bytes' buffer: it runs for every Contents.json a scan reads.
    static func lines(ofEntriesIn bytes: [UInt8], key name: String = "images") -> [Int] {
        let key = Array("\"\(name)\"".utf8)
        return bytes.withUnsafeBufferPointer { b -> [Int] in
            guard b.count >= key.count, let first = key.first else { return [] }
            var keyStart: Int?
            var i = 0
            while i <= b.count - key.count {
                if b[i] == first && key.indices.allSatisfy({ b[i + $0] == key[$0] }) {
                    keyStart = i
                    break
                }
                i += 1
            }
            guard let keyStart else { return [] }
            var open = keyStart + key.count
            while open < b.count && b[open] != 0x5B { open += 1 }
            guard open < b.count else { return [] }
            var line = 1
            for j in 0..<open where b[j] == 0x0A { line += 1 }
            var depth = 0
            var inString = false
            var escaped = false
            var result: [Int] = []
            for j in open..<b.count {
                let c = b[j]
                if c == 0x0A { line += 1 }
                if inString {
                    if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                    continue
                }
                switch c {
                case 0x22: inString = true
                case 0x5B, 0x7B:
                    if c == 0x7B && depth == 1 { result.append(line) }
                    depth += 1
                case 0x5D, 0x7D:
                    depth -= 1
                    if depth == 0 { return result }
                default: break
                }
            }
            return result
        }
    }
}
