import Findings
import Foundation
import ProjectModel
import RuleEngine
import SystemCalls

/// `fix --single-size`: a legacy (all sizes) iOS app icon set with missing or wrongly sized icons
/// is made a single-size set instead: one universal iOS 1024x1024 entry, from which Xcode 14 and
/// later make every size at build time (WWDC22; iOS, iPadOS and watchOS only, macOS still needs
/// every size: https://www.avanderlee.com/xcode/replacing-app-icon-generators/). Only where the
/// deployment target is known to be iOS 12 or later: Xcode's single size needs it
/// (https://github.com/apache/cordova-ios/pull/1309, /issues/1462). The files of the entries it
/// drops are removed; the journal keeps them and `fix --undo` puts them back.
enum SingleSizeConversion {
    static let minimum = OSVersion(12, 0)
    static let iosIdioms: Set<String> = ["iphone", "ipad", "ios-marketing"]

    /// nil: the set is not a legacy iOS set (already single-size: the usual repair applies).
    static func convert(_ set: String, in context: RepairContext) -> RepairOutcome? {
        if context.convertedSets.contains(set) { return .alreadyRepaired }
        let contents = RelativePath.join(set, "Contents.json")
        guard let bytes = context.read(contents), let entries = ContentsText.entries(bytes),
            (try? JSONSerialization.jsonObject(with: Data(bytes))) != nil
        else { return .leave("\(contents) cannot be read or followed as text") }
        let idioms = Set(entries.map { $0.object["idiom"] as? String ?? "(none)" })
        if idioms == ["universal"] { return nil }
        guard idioms.isSubset(of: iosIdioms) else {
            let others = idioms.subtracting(iosIdioms).sorted().joined(separator: ", ")
            return .leave(
                "--single-size: the set also has \(others) entries; a single-size set is iOS only (macOS needs every size): convert it in Xcode, or run without --single-size to fill the sizes"
            )
        }
        let project = context.project(of: set)
        guard let project, project.sources["deployment-target"] != .defaults else {
            return .leave(
                "--single-size: the deployment target is not known, and a single-size set needs iOS \(minimum) or later: set deployment-target in .reswatch.yaml, or run without --single-size"
            )
        }
        guard project.deploymentTarget >= minimum else {
            return .leave(
                "--single-size: the deployment target is iOS \(project.deploymentTarget) (\(project.deploymentTargetBecause)); a single-size set needs iOS \(minimum) or later: run without --single-size to fill the sizes"
            )
        }
        guard let master = IconSizeRepair.master(in: set, atLeast: 1024, excluding: nil, context: context),
            master.image.width == 1024
        else { return .leave("--single-size: the set has no 1024x1024 image to keep as its one size: add the App Store icon first") }
        let name = RelativePath.name(master.path)
        guard let spans = JSONSpans.arrayElements(in: bytes, key: "images"), let first = spans.first, let last = spans.last else {
            return .leave("\(contents) cannot be followed as text")
        }
        let indent = TextLayout.indentation(bytes, at: first.lowerBound)
        let nl = TextLayout.newline(bytes)
        let fields = [("filename", name), ("idiom", "universal"), ("platform", "ios"), ("size", "1024x1024")]
        let body = fields.map { "\(indent)  \(ContentsText.quoted($0.0)) : \(ContentsText.quoted($0.1))" }.joined(separator: ",\(nl)")
        let converted = TextEdit.apply(
            [TextEdit(start: first.lowerBound, end: last.upperBound, newText: "{\(nl)\(body)\(nl)\(indent)}")], to: bytes)
        // The files only the dropped entries named (one file may fill several slots).
        let dropped = Set(entries.compactMap { $0.object["filename"] as? String }).subtracting([name])
        var changes = [context.write(contents, converted)]
        for file in dropped.sorted() {
            let path = RelativePath.join(set, file)
            guard RepairPaths.isSafe(path), !file.contains("/"), let removal = context.remove(path) else { continue }
            changes.append(removal)
        }
        context.convertedSets.insert(set)
        return .repair(
            title:
                "Make \(RelativePath.name(set)) a single-size set: \(name) (1024x1024) alone, every size made from it by Xcode at build time; \(changes.count - 1) icon(s) it no longer needs removed",
            changes: changes)
    }
}
