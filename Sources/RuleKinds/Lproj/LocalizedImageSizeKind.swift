import Findings
import ImageFacts
import RuleKit
import SystemCalls

/// `lproj.image-mismatch`: a localized icon or launch image has the base image's pixel size.
package struct LocalizedImageSizeKind: RuleKind {
    package static let name = "localized-image-size"
    package static let summary = "Checks that icons and launch images inside .lproj folders match the size of the base image."
    package static let subjects: Set<SubjectKind> = [.image]

    package static let mismatch = RuleInfo(
        id: "lproj.image-mismatch", severity: .error,
        summary: "A localized icon or launch image whose pixel size differs from the base one.",
        rationale:
            "iOS Application Programming Guide (2010) and App Programming Guide (Expected App Behaviors): localized icons and launch images replace the base file for that language and must have the same dimensions; a different size is scaled or rejected.",
        fix: "Export the localized image at the base image's pixel size.")
    package static let rules = [mismatch]

    package init(parameters: ModuleParameters) {}

    package func applies(to subject: Subject) -> Bool {
        RelativePath.withBytes(of: subject.path) { RelativePath.hasSuffix(RelativePath.parent(in: $0), ".lproj") }
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let name = RelativePath.name(subject.path)
        let lproj = RelativePath.parent(subject.path)
        // The base: the same name outside any .lproj, else in Base.lproj.
        let candidates = context.subjects(.image).map(\.path).filter { RelativePath.name($0) == name && $0 != subject.path }
        guard
            let base = candidates.first(where: { !RelativePath.parent($0).hasSuffix(".lproj") })
                ?? candidates.first(where: { RelativePath.name(RelativePath.parent($0)) == "Base.lproj" }),
            case .success(let mine) = context.image(subject.path), let m = mine.header,
            case .success(let theirs) = context.image(base), let b = theirs.header
        else { return }
        if m.width != b.width || m.height != b.height {
            context.report(
                Self.mismatch, path: subject.path,
                message: "\(name) in \(RelativePath.name(lproj)) is \(m.width)x\(m.height) but the base \(base) is \(b.width)x\(b.height)",
                related: [base])
        }
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a localized launch image of the base size",
            files: [
                "App/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
                "App/fr.lproj/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
            ], passes: ["lproj.image-mismatch"]),
        RuleExample(
            "a localized icon of another size",
            files: [
                "App/Icon.png": .png(PNGSpec(width: 57, height: 57)), "App/de.lproj/Icon.png": .png(PNGSpec(width: 60, height: 60)),
            ], triggers: ["lproj.image-mismatch"]),
    ]
}
