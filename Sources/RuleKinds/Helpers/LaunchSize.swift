import ProjectModel

/// "{320, 568}" → (320, 568), the NSStringFromCGSize form.
enum LaunchSize {
    static func parse(_ text: String) -> (width: Double, height: Double)? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("{"), t.hasSuffix("}") else { return nil }
        let parts = t.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // "{1e300, 5}" or "{inf, nan}" is no size: beyond any screen, it is reported as malformed.
        let limit = Double(CheckedNumber.maximumPixels)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w <= limit, h <= limit else {
            return nil
        }
        return (w, h)
    }
}
