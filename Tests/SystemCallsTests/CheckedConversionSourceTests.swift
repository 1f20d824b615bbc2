import Foundation
import Testing

/// `Int(someDouble)` traps on NaN, infinity and values beyond ±2^63: a hostile Contents.json
/// ("1e19x1e19") or request ({"timeout_ms": 1e300}) killed the process. Numbers from outside become
/// Ints only through `CheckedNumber` or `Int(exactly:)`; this check keeps new unchecked conversions
/// of floating-point values out of the sources.
@Suite struct CheckedConversionSourceTests {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Signs that the argument of `Int(` is floating point.
    static let floatingSigns = [
        ".rounded(", "Double", "Float", "timeInterval", "Seconds", "seconds", ".width", ".height", ".size", " * ", " / ",
    ]

    @Test func noUncheckedIntConversionOfFloatingPointValues() throws {
        let sources = Self.root + "/Sources"
        let files = FileManager.default.enumerator(atPath: sources)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var offenders: [String] = []
        for file in files where !file.hasSuffix("CheckedNumber.swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var rest = Substring(line)
                while let r = rest.range(of: "Int(") {
                    let before = rest[..<r.lowerBound]
                    let isCall = before.last.map { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? true
                    var depth = 1
                    var i = r.upperBound
                    while i < rest.endIndex, depth > 0 {
                        if rest[i] == "(" { depth += 1 } else if rest[i] == ")" { depth -= 1 }
                        i = rest.index(after: i)
                    }
                    let argument = rest[r.upperBound..<(depth == 0 ? rest.index(before: i) : i)]
                    // Int(exactly:) is checked; Int(truncatingIfNeeded:) takes integers only, by type.
                    if isCall, !argument.hasPrefix("exactly:"), !argument.hasPrefix("truncatingIfNeeded:"),
                        Self.floatingSigns.contains(where: argument.contains)
                    {
                        offenders.append("Sources/\(file):\(n + 1): Int(\(argument))")
                    }
                    rest = rest[r.upperBound...]
                }
            }
        }
        #expect(offenders.isEmpty, "use CheckedNumber or Int(exactly:):\n\(offenders.joined(separator: "\n"))")
    }
}
