/// The one place a number read from outside (JSON, plists, YAML, Contents.json, socket messages)
/// becomes an `Int`. `Int(someDouble)` traps on NaN, infinity and anything beyond ±2^63, so a
/// hostile file or request could kill the process; these return nil instead, and every caller
/// turns nil into a diagnostic or a JSON-RPC error. A test keeps other such conversions out of
/// the sources.
public enum CheckedNumber {
    /// A whole number in `range`; nil for NaN, infinities, fractions and out-of-range values.
    public static func int(_ value: Double, in range: ClosedRange<Int> = Int.min...Int.max) -> Int? {
        guard let i = Int(exactly: value), range.contains(i) else { return nil }
        return i
    }

    /// `value` rounded to the nearest whole number in `range` (pixel sizes from points × scale).
    public static func rounded(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.isFinite else { return nil }
        let r = value.rounded()
        guard r >= Double(range.lowerBound), r <= Double(range.upperBound) else { return nil }
        return Int(exactly: r)
    }

    /// Largest image side reswatch reasons about (App Store icons are 1024; no launch image or
    /// icon slot is near this). Sizes beyond it are reported as invalid, never multiplied.
    public static let maximumPixels = 100_000
}
