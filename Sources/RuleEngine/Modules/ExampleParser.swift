import Findings
import ImageFacts
import RuleKit

/// Reads `examples:` of a rule module (the YAML twin of `RuleExample`).
enum ExampleParser {
    static func parse(_ node: ModuleNode, file: String) -> Result<[RuleExample], ModuleError> {
        guard let list = node.sequence else {
            return .failure(ModuleError(file: file, line: node.line, message: "examples: expected a list"))
        }
        var out: [RuleExample] = []
        for item in list {
            let p = ModuleParameters(node: item, file: file)
            do throws(ModuleError) {
                try p.expectOnly(["name", "files", "triggers", "passes"])
                let name = try p.requiredString("name")
                guard let filesNode = p.value("files")?.mapping else { throw p.error("example '\(name)': expected files: mapping") }
                var files: [String: ExampleFile] = [:]
                for pair in filesNode {
                    guard let path = pair.key.string else { continue }
                    files[path] = try parseFile(pair.value, file: file)
                }
                let triggers = try p.strings("triggers") ?? []
                let passes = try p.strings("passes") ?? []
                if triggers.isEmpty && passes.isEmpty { throw p.error("example '\(name)': give triggers: or passes:") }
                // A module's example points at its own file and line.
                out.append(
                    RuleExample(
                        name, files: files, triggers: triggers, passes: passes, fileID: file, filePath: file, line: item.line ?? 0))
            } catch {
                return .failure(error)
            }
        }
        return .success(out)
    }

    static func parseFile(_ node: ModuleNode, file: String) throws(ModuleError) -> ExampleFile {
        if let s = node.string { return .text(s) }
        let p = ModuleParameters(node: node, file: file)
        if let png = p.child("png") {
            try png.expectOnly([
                "width", "height", "color", "bit-depth", "interlaced", "transparent", "trns", "cgbi", "bad-crc", "truncate",
            ])
            // Examples are synthesized in memory: sizes are bounded (no real icon or launch image is larger).
            guard let w = try png.int("width", in: 1...4096), let h = try png.int("height", in: 1...4096) else {
                throw png.error("png: width and height are required")
            }
            var spec = PNGSpec(width: w, height: h)
            if let c = try png.string("color") {
                guard let color = PNGSpec.Color(rawValue: c) else {
                    throw png.error("png.color: one of \(PNGSpec.Color.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                spec.color = color
            }
            spec.bitDepth = try png.int("bit-depth", in: 1...16) ?? 8
            guard [1, 2, 4, 8, 16].contains(spec.bitDepth) else { throw png.error("png: bit-depth is 1, 2, 4, 8 or 16") }
            spec.interlaced = try png.bool("interlaced") ?? false
            // A fully transparent pixel in the middle of the image (a see-through hole).
            spec.transparentPixels = try png.bool("transparent") ?? false
            if spec.transparentPixels { spec.transparentAt = (spec.width / 2, spec.height / 2) }
            spec.trns = try png.bool("trns") ?? false
            spec.cgbi = try png.bool("cgbi") ?? false
            spec.badCRC = try png.bool("bad-crc") ?? false
            spec.truncateTo = try png.int("truncate", in: 0...Int(Int32.max))
            return .png(spec)
        }
        if try p.bool("directory") == true { return .directory }
        throw p.error("a file is text, {png: {...}} or {directory: true}")
    }
}
