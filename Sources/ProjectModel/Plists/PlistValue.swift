import Foundation
import SystemCalls

/// A property-list value that can cross threads (Foundation hands back `Any`).
public indirect enum PlistValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    public subscript(key: String) -> PlistValue? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var array: [PlistValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var dictionary: [String: PlistValue]? { if case .dictionary(let d) = self { return d } else { return nil } }
    public var bool: Bool? {
        switch self {
        case .boolean(let b): b
        case .integer(let i): i != 0
        case .string(let s):
            ["yes", "true", "1"].contains(s.lowercased()) ? true : (["no", "false", "0"].contains(s.lowercased()) ? false : nil)
        default: nil
        }
    }
    /// Strings and numbers as text (pbxproj stores `6.0` and `"6.0"` alike).
    public var text: String? {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .real(let r): String(r)
        default: nil
        }
    }

    /// Most values a property list may expand to. A binary plist's objects may be referenced many
    /// times (a 393-byte file of nested arrays of shared references expands to billions of
    /// values); a real Info.plist has hundreds, a 1 MB project.pbxproj about 40,000 (a million is
    /// a 25 MB one). Foundation builds every value reached, so the budget also bounds its memory
    /// (about 150 MB at the limit); binary plists are counted from their object table first.
    public static let expansionBudget = 1_000_000
    /// Deepest nesting read (a real plist nests a handful of levels).
    static let maximumDepth = 256

    /// Converts Foundation's objects, counting every value against `budget` (shared references
    /// count each time they are reached) and nesting against a depth limit.
    static func converting(_ value: Any, budget: inout Int, depth: Int = 0) -> PlistValue? {
        budget -= 1
        guard budget >= 0, depth < maximumDepth else { return nil }
        switch value {
        case let a as [Any]:
            var items: [PlistValue] = []
            items.reserveCapacity(min(a.count, max(budget, 0)))
            for item in a {
                guard let v = converting(item, budget: &budget, depth: depth + 1) else { return nil }
                items.append(v)
            }
            return .array(items)
        case let d as [String: Any]:
            var out: [String: PlistValue] = [:]
            for (k, item) in d {
                guard let v = converting(item, budget: &budget, depth: depth + 1) else { return nil }
                out[k] = v
            }
            return .dictionary(out)
        case let d as [AnyHashable: Any]:
            var out: [String: PlistValue] = [:]
            for (k, item) in d {
                guard let v = converting(item, budget: &budget, depth: depth + 1) else { return nil }
                out["\(k)"] = v
            }
            return .dictionary(out)
        default:
            return PlistValue(foundation: value)
        }
    }

    init(foundation value: Any) {
        switch value {
        case let s as String: self = .string(s)
        case let b as Bool where type(of: value) == Bool.self:
            self = .boolean(b)
        case let i as Int where type(of: value) == Int.self:
            self = .integer(i)
        case let d as Double where type(of: value) == Double.self:
            self = .real(d)
        case let n as NSNumber:
            let typeCode = String(cString: n.objCType)
            if typeCode == "c" || typeCode == "B" {
                self = .boolean(n.boolValue)
            } else if typeCode == "d" || typeCode == "f" {
                self = .real(n.doubleValue)
            } else {
                self = .integer(n.intValue)
            }
        case let d as Date: self = .date(d)
        case let d as Data: self = .data(d)
        case let a as [Any]: self = .array(a.map(PlistValue.init(foundation:)))
        case let d as [String: Any]: self = .dictionary(d.mapValues(PlistValue.init(foundation:)))
        case let d as [AnyHashable: Any]:
            var out: [String: PlistValue] = [:]
            for (k, v) in d { out["\(k)"] = PlistValue(foundation: v) }
            self = .dictionary(out)
        default: self = .string("\(value)")
        }
    }
}

/// Why a property list could not be used.
public enum PlistError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(SystemError)
    case malformed(String, line: Int?)
    case notADictionary

    public var description: String {
        switch self {
        case .unreadable(let e): "cannot read: \(e.reason)"
        case .malformed(let m, let line): line.map { "line \($0): \(m)" } ?? m
        case .notADictionary: "the top level is not a dictionary"
        }
    }
    public var line: Int? { if case .malformed(_, let line) = self { return line } else { return nil } }
}

public enum PlistFormat: String, Sendable { case xml, binary, openStep }

public enum PropertyListReader {
    /// Parses XML, binary or OpenStep plist bytes. The top level must be a dictionary.
    public static func parse(_ bytes: [UInt8]) -> Result<(PlistValue, PlistFormat), PlistError> {
        if bytes.isEmpty { return .failure(.malformed("empty file", line: nil)) }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let tooBig = PlistError.malformed(
            "expands to more than \(PlistValue.expansionBudget) values (shared references or nesting deeper than 256): not read", line: nil)
        // Shared references are counted from the object table first: Foundation keeps them shared,
        // but walking them would cost what they expand to.
        switch BinaryPlistShape.judge(bytes, budget: PlistValue.expansionBudget) {
        case .readable: break
        case .tooBig: return .failure(tooBig)
        case .unsupported(let what):
            return .failure(.malformed("holds \(what), which a property list of an app never has: not read", line: nil))
        }
        do {
            let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
            // Judged before the walk: a top level that is not a dictionary is refused at once.
            guard object is [String: Any] || object is [AnyHashable: Any] else { return .failure(.notADictionary) }
            var budget = PlistValue.expansionBudget
            guard let value = PlistValue.converting(object, budget: &budget) else { return .failure(tooBig) }
            let kind: PlistFormat =
                switch format {
                case .binary: .binary
                case .openStep: .openStep
                default: .xml
                }
            return .success((value, kind))
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo["NSDebugDescription"] as? String) ?? ns.localizedDescription
            return .failure(.malformed(detail, line: Self.lineNumber(in: detail)))
        }
    }

    /// Foundation says "... on line 5" / "... at line 5".
    static func lineNumber(in message: String) -> Int? {
        guard let range = message.range(of: #"line (\d+)"#, options: .regularExpression) else { return nil }
        return Int(message[range].dropFirst(5))
    }
}
