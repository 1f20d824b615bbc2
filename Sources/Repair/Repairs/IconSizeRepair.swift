import Findings
import ImageFacts
import RuleEngine
import SystemCalls

/// `icon.size-mismatch`, `icon.missing-required`, `icon.missing-recommended` in an app icon set:
/// the icon is made from the largest square image of the set (the 1024 master), resampled in
/// linear light, written as an 8-bit PNG and, for an empty slot, named in Contents.json. Never
/// upscaled: without a master at least as large, the finding is left.
enum IconSizeRepair: RepairKind {
    static let rules: Set<String> = ["icon.size-mismatch", "icon.missing-required", "icon.missing-recommended"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let isContents = RelativePath.name(finding.path) == "Contents.json"
        let set = RelativePath.parent(finding.path)
        guard set.hasSuffix(".appiconset") else {
            return .leave("an icon Info.plist names outside an asset catalog: move the app's icons into an app icon set")
        }
        if context.options.singleSize, let outcome = SingleSizeConversion.convert(set, in: context) { return outcome }
        if isContents {
            guard let match = finding.message.firstMatch(of: /no (\d+)x\d+ icon in the (.+?) slot/), let pixels = Int(match.1) else {
                return .leave("the finding names no slot reswatch can fill")
            }
            let slots = match.2.split(separator: " or ").compactMap { Slot(String($0)) }
            return fill(slots: slots, pixels: pixels, set: set, in: context)
        }
        // A file of the wrong size: made again at the size of its slot.
        guard let match = finding.message.firstMatch(of: /should be (\d+)x(\d+)/), let w = Int(match.1), let h = Int(match.2) else {
            return .leave("the finding names no size reswatch can make")
        }
        guard let master = master(in: set, atLeast: max(w, h), excluding: finding.path, context: context) else {
            return .leave("no square image of at least \(w)x\(h) in the set to make it from: export it at that size")
        }
        guard let resized = master.image.resized(width: w, height: h), case .success(let png) = resized.png(alpha: !resized.isOpaque)
        else { return .leave("it could not be resampled") }
        return .repair(
            title:
                "Make \(finding.path) again at \(w)x\(h) from \(RelativePath.name(master.path)) (\(master.image.width)x\(master.image.height))",
            changes: [context.write(finding.path, png)])
    }

    /// `iphone 60@2x`.
    struct Slot {
        let idiom: String
        let size: String
        let scale: String

        init?(_ text: String) {
            let parts = text.split(separator: " ")
            guard parts.count == 2, let at = parts[1].firstIndex(of: "@") else { return nil }
            idiom = String(parts[0])
            size = String(parts[1][..<at])
            scale = String(parts[1][parts[1].index(after: at)...])
        }
    }

    static func fill(slots: [Slot], pixels: Int, set: String, in context: RepairContext) -> RepairOutcome {
        guard !slots.isEmpty else { return .leave("the finding names no slot reswatch can fill") }
        let contents = RelativePath.join(set, "Contents.json")
        guard var bytes = context.read(contents), ContentsText.entries(bytes) != nil else {
            return .leave("\(contents) cannot be read or followed as text")
        }
        guard let master = master(in: set, atLeast: pixels, excluding: nil, context: context) else {
            return .leave(
                "no square image of at least \(pixels)x\(pixels) in the set to make it from (add the 1024x1024 App Store icon first)")
        }
        let name = "Icon-\(slots[0].idiom)-\(slots[0].size)@\(slots[0].scale).png"
        let file = RelativePath.join(set, name)
        if context.exists(file) { return .leave("\(name) is already in the set: assign it, or remove it") }
        guard let resized = master.image.resized(width: pixels, height: pixels),
            case .success(let png) = resized.png(alpha: !resized.isOpaque)
        else { return .leave("it could not be resampled") }
        for slot in slots {
            let entries = ContentsText.entries(bytes) ?? []
            let size = "\(slot.size)x\(slot.size)"
            if let entry = entries.first(where: {
                $0.object["filename"] == nil && $0.object["idiom"] as? String == slot.idiom && $0.object["size"] as? String == size
                    && ($0.object["scale"] as? String ?? "1x") == slot.scale
            }) {
                bytes = ContentsText.naming(bytes, entry: entry.span, name)
            } else if let appended = ContentsText.appendingEntry(
                bytes, [("filename", name), ("idiom", slot.idiom), ("scale", slot.scale), ("size", size)])
            {
                bytes = appended
            } else {
                return .leave("\(contents) cannot be followed as text")
            }
        }
        return .repair(
            title:
                "Make \(name) (\(pixels)x\(pixels)) from \(RelativePath.name(master.path)) and assign it to \(slots.map { "\($0.idiom) \($0.size)@\($0.scale)" }.joined(separator: " and "))",
            changes: [context.write(file, png), context.write(contents, bytes)])
    }

    /// The file an entry names, made at its slot's size from the set's master.
    static func make(named name: String, for slot: Slot, set: String, in context: RepairContext) -> RepairOutcome {
        guard let points = Double(slot.size), let scale = Double(slot.scale.dropLast()), slot.scale.hasSuffix("x"),
            let pixels = Int(exactly: (points * scale).rounded()), (1...16_384).contains(pixels)
        else { return .leave("the slot \(slot.idiom) \(slot.size)@\(slot.scale) has no size reswatch can make") }
        let file = RelativePath.join(set, name)
        guard RepairPaths.isSafe(file), !name.contains("/"), name.lowercased().hasSuffix(".png") else {
            return .leave("the name \(name) is not a PNG file name in the set")
        }
        if context.exists(file) { return .alreadyRepaired }
        guard let master = master(in: set, atLeast: pixels, excluding: nil, context: context) else {
            return .leave(
                "the file is not in the set, and no square image of at least \(pixels)x\(pixels) is there to make it from: add it")
        }
        guard let resized = master.image.resized(width: pixels, height: pixels),
            case .success(let png) = resized.png(alpha: !resized.isOpaque)
        else { return .leave("it could not be resampled") }
        return .repair(
            title:
                "Make \(name) (\(pixels)x\(pixels)) from \(RelativePath.name(master.path)) (\(master.image.width)x\(master.image.height))",
            changes: [context.write(file, png)])
    }

    /// The largest square PNG of the set that decodes, at least `side` wide (sizes from IHDR, so
    /// only the chosen one is decoded).
    static func master(in set: String, atLeast side: Int, excluding: String?, context: RepairContext) -> (path: String, image: RGBAImage)? {
        var candidates: [(path: String, side: Int, bytes: [UInt8])] = []
        for name in context.list(set) where name.lowercased().hasSuffix(".png") {
            let path = RelativePath.join(set, name)
            guard path != excluding, let bytes = context.read(path), bytes.count > 24,
                bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            else { continue }
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            if width == height, width >= side { candidates.append((path, width, bytes)) }
        }
        for candidate in candidates.sorted(by: { ($0.side, $1.path) > ($1.side, $0.path) }) {
            if case .success(let image) = RGBAImage.decode(candidate.bytes) { return (candidate.path, image) }
        }
        return nil
    }
}
