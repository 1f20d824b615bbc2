import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// One evaluation of an `.appiconset` by `AppIconSetKind`: what it has learned of the set so far
/// (slots filled, files named, the App Store icon), and one function per rule id it reports.
struct AppIconSetEvaluation {
    let kind: AppIconSetKind
    let subject: Subject
    let context: EvaluationContext
    let setName: String
    let contents: AssetContents
    let contentsPath: String
    let present: Set<String>
    /// The folder's names by their lowercase, made at the first name that is not in `present`
    /// (most sets have none: building it for every set was 1.5 % of a check).
    var presentByLowercase: [String: String]?
    /// An app extension's icon set (a widget's, an action extension's: drawn as a template, its
    /// alpha is the shape) has no App Store icon: the alpha rules are for the app's and watch
    /// apps' icons (ITMS-90717 names those).
    let extensionSet: Bool
    /// Why no configuration builds with the set, if none does: then it is checked only for what
    /// makes it unusable (missing or broken files, wrong sizes), and that is said once.
    let unshipped: String?
    /// An Icon Composer icon of the same name replaces the set (`IconBundles.shadowing`): nothing
    /// is required of it and no App Store rule judges its images.
    let shadowed: Bool

    var filled = Set<IconSlot>()
    var referenced = Set<String>()
    var seen: [SlotKey: Int] = [:]
    var isIOSSet = false
    var singleSize = false
    var marketingFilled = false
    /// Slots whose named file is missing: already icon.file-missing, not reported again as empty.
    var namedButMissing = Set<IconSlot>()
    /// A single-size set whose 1024 master is missing: every size actool would make from it is
    /// missing because of that one file (one cause, one finding).
    var missingMaster: ReportedFinding?

    init?(kind: AppIconSetKind, subject: Subject, context: EvaluationContext) {
        let setName = RelativePath.name(subject.path)
        guard SubjectClassifier.assetSetType(ofDirectory: setName) == "appiconset" else { return nil }
        let contentsPath = RelativePath.join(subject.path, "Contents.json")
        guard case .success(let contents)? = context.assetContents(contentsPath) else { return nil }
        self.kind = kind
        self.subject = subject
        self.context = context
        self.setName = setName
        self.contents = contents
        self.contentsPath = contentsPath
        let listing = (try? context.list(subject.path).get()) ?? []
        present = Set(listing.filter { !$0.isDirectory }.map(\.name))
        let owner = context.project.otherTarget(containing: subject.path)
        extensionSet = owner.map { $0.productType.contains("extension") && !$0.productType.contains("watchkit") } ?? false
        let base = String(setName.dropLast(".appiconset".count))
        unshipped = owner.map { Self.unshipped(base, by: $0) } ?? context.project.unshippedIconSetReason(base)
        shadowed = IconBundles.shadowing(set: subject.path, in: context) != nil
    }

    /// For a set in another target's folder (a watch app's): why its archive configuration does
    /// not build with it, or nil when it does or that cannot be known. A Debug-only
    /// `WatchIcon.dev` is never uploaded, so no App Store rule judges it.
    static func unshipped(_ name: String, by owner: OtherTarget) -> String? {
        guard let used = owner.appIconName, used != name, !used.contains("$"), !owner.settingsIncomplete, let settings = owner.settings
        else { return nil }
        if let all = settings.string("ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS"), ["YES", "yes", "1", "true"].contains(all) {
            return nil
        }
        let alternates = settings.string("ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES")?.split(separator: " ").map(String.init) ?? []
        guard !alternates.contains(name) else { return nil }
        let configuration = settings.string("CONFIGURATION").map { " in \($0)" } ?? ""
        return "\(owner.name) builds with \(used)\(configuration), the configuration it is archived with"
    }

    /// The set's name without `.appiconset`.
    var baseName: String { String(setName.dropLast(".appiconset".count)) }

    /// icon.not-shipped: said once, for a set no build configuration uses.
    func reportNotShipped() {
        guard let unshipped else { return }
        context.report(
            AppIconSetKind.notShipped, path: subject.path,
            message: "\(setName): \(unshipped); only checked for missing or broken files and wrong sizes")
    }

    /// Everything about one Contents.json entry: its slot, its file, and the image.
    mutating func check(_ entry: AssetImageEntry, at index: Int) {
        let entry = EntrySlot(entry)
        if ["iphone", "ipad", "ios-marketing"].contains(entry.idiom) || entry.iosUniversal { isIOSSet = true }
        reportDuplicate(entry, at: index)
        reportInvalidSlot(entry)
        guard let filename = resolveFile(entry) else { return }
        let filePath = RelativePath.join(subject.path, filename)
        guard let slot = entry.slot else { return }
        let noAppearance = entry.image.appearances.isEmpty
        if noAppearance { filled.insert(slot) }
        let isMarketing =
            kind.marketingSlots.contains(slot) && (entry.idiom != "universal" || entry.iosUniversal || slot.idiom != "universal")
        if isMarketing && noAppearance {
            marketingFilled = marketingFilled || entry.idiom != "watch-marketing"
            if entry.iosUniversal { singleSize = true }
        }
        guard case .success(let facts) = context.image(filePath), let header = facts.header else { return }
        reportSizeMismatch(entry, slot: slot, header: header, file: filename)
        reportLegacySlot(entry, slot: slot, file: filename)
        guard noAppearance, header.hasAlpha, !header.isCgBI, !extensionSet, unshipped == nil, !shadowed else { return }
        if isMarketing {
            reportMarketingAlpha(header: header, file: filename)
        } else if ["iphone", "ipad"].contains(entry.idiom) || entry.iosUniversal {
            reportTransparent(entry, file: filename)
        }
    }

    /// icon.duplicate-slot: an entry repeating an earlier one's idiom/size/scale/appearance.
    mutating func reportDuplicate(_ entry: EntrySlot, at index: Int) {
        let image = entry.image
        // As before: an absent field is the empty one; one appearance needs no sorting and joining.
        let key = SlotKey(
            idiom: entry.idiom, size: image.size ?? "", scale: image.scale ?? "", platform: image.platform ?? "",
            appearances: image.appearances.count < 2 ? image.appearances.first ?? "" : image.appearanceKey,
            role: image.role ?? "", subtype: image.subtype ?? "")
        // One hash of the key for an entry seen first (the common case); a repeat puts the first
        // index back.
        if let first = seen.updateValue(index, forKey: key) {
            seen[key] = first
            context.report(
                AppIconSetKind.duplicateSlot, path: contentsPath, line: image.line,
                message: "images[\(index)] repeats the \(entry.name) slot of images[\(first)]")
        }
    }

    /// icon.unassigned for an entry that maps to no valid slot (known idioms only; watch, mac
    /// and car icons are left alone).
    func reportInvalidSlot(_ entry: EntrySlot) {
        let validIdiom = entry.iosUniversal ? "universal" : entry.idiom
        guard let valid = kind.validSlots[validIdiom], entry.idiom != "universal" || entry.iosUniversal else { return }
        if let slot = entry.slot, valid.contains(IconSlot(idiom: validIdiom, size: slot.size, scale: slot.scale)) { return }
        context.report(
            AppIconSetKind.unassigned, path: RelativePath.join(subject.path, entry.image.filename ?? "Contents.json"),
            line: entry.image.line,
            message: "Contents.json entry \(entry.name) is not a valid \(validIdiom) app icon slot")
    }

    /// The file an entry names as it is in the folder, or nil (no file named, or
    /// icon.file-missing reported).
    mutating func resolveFile(_ entry: EntrySlot) -> String? {
        guard let named = entry.image.filename else { return nil }
        referenced.insert(named)
        if present.contains(named) { return named }
        // Differs only in case: one finding naming both. A case-insensitive disk (Xcode's
        // default) resolves it; a case-sensitive one does not: a warning, not two findings.
        if presentByLowercase == nil {
            // Names that differ only in case among themselves: the first in sorted order, the same
            // file on every run (a Set's order is not).
            presentByLowercase = Dictionary(present.sorted().map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        }
        if let actual = presentByLowercase?[named.lowercased()] {
            context.report(
                AppIconSetKind.fileMissing, severity: .warning, path: RelativePath.join(subject.path, actual), line: entry.image.line,
                message:
                    "Contents.json names \(named) for the \(entry.name) slot; the file is \(actual) (found only on a case-insensitive disk)",
                fix: "Rename the file or fix the \"filename\" so the case matches.",
                related: [contentsPath])
            referenced.insert(actual)
            return actual
        }
        reportFileMissing(entry, named: named)
        return nil
    }

    /// icon.file-missing: an error for a required slot (with the code of the rejection the
    /// empty slot brings), a warning for an optional one.
    mutating func reportFileMissing(_ entry: EntrySlot, named: String) {
        let slot = entry.slot
        if let slot {
            namedButMissing.insert(slot)
            if kind.marketingSlots.contains(slot) && entry.idiom != "watch-marketing" { marketingFilled = true }
        }
        // The required slots only matter here, where a named file is missing: computed for every
        // set, they were 2 % of a check.
        let required = slot == nil ? [] : kind.requiredSlots(context.project)
        let needed =
            slot.map { s in
                required.contains { $0.size == s.size && $0.scale == s.scale && ($0.idiom == s.idiom || s.idiom == "universal") }
            } ?? false
        let isMarketingSlot = slot.map { kind.marketingSlots.contains($0) } ?? false
        let code =
            isMarketingSlot
            ? AppIconSetKind.marketingMissing.code
            : needed
                ? slot.flatMap { s in kind.table.rows(for: context.project).first { $0.slots.contains(s) }?.code }
                    ?? AppIconSetKind.missingRequired.code : nil
        let missing = context.report(
            AppIconSetKind.fileMissing(code: code), severity: needed || isMarketingSlot ? .error : .warning,
            path: RelativePath.join(subject.path, named), line: entry.image.line,
            message:
                "Contents.json names \(named) for the \(entry.name) slot, but the file is not in \(setName)"
                + (needed || isMarketingSlot ? " (a required slot: App Store Connect rejects a build without it)" : " (an optional slot)"),
            related: [contentsPath])
        if entry.iosUniversal, slot?.size == 1024, entry.image.appearances.isEmpty { missingMaster = missingMaster ?? missing }
    }

    /// icon.size-mismatch: the image is not size × scale of its slot.
    func reportSizeMismatch(_ entry: EntrySlot, slot: IconSlot, header: PNGHeader, file: String) {
        let expected = slot.pixels
        guard header.width != expected || header.height != expected else { return }
        context.report(
            AppIconSetKind.sizeMismatch, path: RelativePath.join(subject.path, file),
            message: "\(file) is \(header.width)x\(header.height) but should be \(expected)x\(expected) (\(entry.name))",
            related: [contentsPath])
    }

    /// icon.legacy-slot: a filled slot that only applies below the deployment target.
    func reportLegacySlot(_ entry: EntrySlot, slot: IconSlot, file: String) {
        let target = context.project.deploymentTarget
        guard target >= OSVersion(7, 0), kind.table.isLegacy(slot, target: target),
            let below = kind.table.legacySlots.first(where: { $0.slot == slot })?.below
        else { return }
        context.report(
            AppIconSetKind.legacySlot, path: RelativePath.join(subject.path, file),
            message: "\(entry.name) only applies below iOS \(below); the deployment target is \(target)")
    }

    /// icon.marketing-alpha: the App Store icon has an alpha channel, whatever its pixels.
    func reportMarketingAlpha(header: PNGHeader, file: String) {
        let filePath = RelativePath.join(subject.path, file)
        let how = header.colorType?.hasAlphaChannel == true ? "colour type \(header.rawColorType)" : "a tRNS chunk"
        var detail = ""
        if case .success(let px) = context.pixels(filePath), px.damage == nil, px.notDecoded == nil {
            detail = px.anyTransparent ? ", \(px.transparentPixels) transparent pixels" : ", although every pixel is opaque"
        }
        context.report(
            AppIconSetKind.marketingAlpha, path: filePath, message: "App Store icon \(file) has an alpha channel (\(how)\(detail))")
    }

    /// icon.transparent: pixels a person can see through, not those the rounded mask hides.
    func reportTransparent(_ entry: EntrySlot, file: String) {
        let filePath = RelativePath.join(subject.path, file)
        guard case .success(let px) = context.pixels(filePath), px.damage == nil, px.seeThroughPixels > 0, let box = px.seeThroughBox
        else { return }
        let n = px.seeThroughPixels
        context.report(
            AppIconSetKind.transparent, path: filePath,
            message:
                "app icon \(file) has \(n) see-through pixel\(n == 1 ? "" : "s") (alpha below \(PixelFacts.seeThroughAlpha) of 255) \(box) (\(entry.name))"
        )
    }

    /// icon.unassigned for files in the folder that no entry names.
    func reportUnassignedFiles() {
        guard unshipped == nil else { return }
        // The unassigned names first, then sorted: sorting every name of every set was 1.5 % of a check.
        // The closure holds the one set it reads: one reading `referenced` of self copied the whole
        // evaluation (its contents, sets and context) for each set.
        let referenced = self.referenced
        let unassigned = present.filter { $0 != "Contents.json" && !$0.hasPrefix(".") && !referenced.contains($0) }
        for name in unassigned.sorted() {
            context.report(
                AppIconSetKind.unassigned, path: RelativePath.join(subject.path, name),
                message: "\(name) is in \(setName) but Contents.json does not assign it to a slot")
        }
    }

    /// icon.marketing-missing, then the tables' required and recommended slots. Requirements
    /// apply to the app's own icon set: not to a set of the same name in an extension's, a watch
    /// app's or another platform's folder (their targets ship no app icon).
    func checkRequirements() {
        let project = context.project
        let inOtherTarget = project.otherTarget(containing: subject.path) != nil
        // Xcode 26.1+: a same-name Icon Composer icon the target compiles replaces the set for
        // every OS version, so nothing is required of it (iconcomposer.shadowed-appiconset says so).
        if shadowed { return }
        guard !inOtherTarget else { return }
        guard baseName == (project.appIconName ?? "AppIcon"), isIOSSet || contents.images.isEmpty else {
            reportEmptyMarketingSlot()
            return
        }
        if !marketingFilled {
            context.report(
                AppIconSetKind.marketingMissing, path: subject.path,
                message: "app icon set \(setName) has no 1024x1024 App Store icon (ios-marketing)")
        }
        if singleSize { return }
        kind.checkTable(subject: subject, filled: filled.union(namedButMissing), context: context, follows: missingMaster)
    }

    /// Whatever its name, a set with an App Store (ios-marketing) slot is meant to ship as an app
    /// icon (an alternate icon, a flavour's icon): that slot needs its 1024 image.
    func reportEmptyMarketingSlot() {
        let images = contents.images
        guard images.contains(where: { $0.idiom == "ios-marketing" && $0.appearances.isEmpty }), !marketingFilled,
            !images.contains(where: { $0.idiom == "ios-marketing" && $0.filename != nil })
        else { return }
        context.report(
            AppIconSetKind.marketingMissing, path: contentsPath, line: images.first { $0.idiom == "ios-marketing" }?.line,
            message: "app icon set \(setName) has an App Store (ios-marketing) slot without a 1024x1024 image")
    }
}

/// A Contents.json entry with the slot it names.
struct EntrySlot {
    let image: AssetImageEntry
    let idiom: String
    let slot: IconSlot?
    /// A single-size iOS entry (`universal`, platform `ios` or none).
    let iosUniversal: Bool

    init(_ image: AssetImageEntry) {
        self.image = image
        idiom = image.idiom ?? "?"
        slot = image.points.flatMap { pts in image.scaleFactor.map { IconSlot(idiom: image.idiom ?? "?", size: pts.width, scale: $0) } }
        iosUniversal = idiom == "universal" && (image.platform == nil || image.platform == "ios")
    }

    /// The slot as messages name it.
    var name: String { slot?.description ?? "\(idiom) \(image.size ?? "?")@\(image.scale ?? "1x")" }
}

/// What makes two entries of a set the same slot (icon.duplicate-slot). A struct, not an array
/// of seven strings: the array was allocated and hashed for every entry of every set, 5 % of a
/// 100k-file scan (callgrind).
struct SlotKey: Hashable {
    let idiom: String
    let size: String
    let scale: String
    let platform: String
    let appearances: String
    let role: String
    let subtype: String
}
