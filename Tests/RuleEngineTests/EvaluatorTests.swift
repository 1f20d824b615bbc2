import Foundation
import ImageFacts
import RuleKit
import TestSupport
import Testing

@testable import RuleEngine

/// The evaluator runs a planned batch against one snapshot and hands back only the records worth
/// keeping: a one-shot check keeps findings, the daemon also keeps what an evaluation read beyond
/// its own file (to know what to re-run).
@Suite struct EvaluatorTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"

    /// A set with one good icon and one of the wrong size, a stray PNG in the app folder and a
    /// `.png` that is not one.
    func batch(keepInputs: Bool) throws -> (engine: Engine, ran: [Evaluator.Work], records: [(Int, EvaluationStore.Record)]) {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            Self.set + "/Contents.json": .text(
                #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"a.png"},{"idiom":"iphone","size":"60x60","scale":"3x","filename":"b.png"}]}"#
            ),
            Self.set + "/a.png": .png(PNGSpec(width: 120, height: 120)),
            Self.set + "/b.png": .png(PNGSpec(width: 100, height: 100)),
            "App/stray.png": .png(PNGSpec(width: 4, height: 4)),
            "App/broken.png": .bytes([1, 2, 3]),
        ])
        let engine = tree.engine()
        let rules = try #require(engine.projectRuleSets.first)
        let contexts = engine.projectContexts
        var plans: [Evaluator.Plan] = []
        var work: [Evaluator.Work] = []
        for (kind, path) in [
            (SubjectKind.assetSet, Self.set), (.image, Self.set + "/a.png"), (.image, "App/stray.png"), (.image, "App/broken.png"),
        ] {
            let subject = Subject(kind, path)
            let node = try #require(engine.tree.node(path))
            for rule in rules.rules where rule.rule.subjectKinds.contains(kind) && rule.rule.applies(to: subject) {
                plans.append(Evaluator.Plan(rule: rule, allowed: rule.allowedIDs.union([EngineRules.unreadable.id])))
                let group = engine.tree.isDirectory(node: node) ? node : engine.tree.parent(of: node)
                work.append(
                    Evaluator.Work(
                        key: EvaluationStore.Key(rule: rule.source, subject: subject), plan: plans.count - 1, context: 0, group: group,
                        node: node))
            }
        }
        let evaluator = Evaluator(
            root: engine.root, tree: engine.tree, subjects: engine.subjects, facts: engine.facts, parsed: engine.parsed,
            keepInputs: keepInputs, cores: 2)
        let (ran, records, _) = evaluator.run(work.reversed(), plans: plans, contexts: contexts)
        return (engine, ran, records)
    }

    @Test func aFoldersEvaluationsRunSideBySide() throws {
        let (_, ran, _) = try batch(keepInputs: false)
        #expect(ran.map(\.group) == ran.map(\.group).sorted(), "sorted by folder node")
        // In a folder, in the order given (`batch` gives its work reversed): the sort is stable.
        #expect(Set(ran.map(\.group)).count < ran.count, "some folder has several evaluations")
        for group in Set(ran.map(\.group)) {
            let plans = ran.filter { $0.group == group }.map(\.plan)
            #expect(plans == plans.sorted(by: >), "folder \(group)")
        }
    }

    @Test func aOneShotCheckGetsBackOnlyRecordsWithFindings() throws {
        let (_, ran, records) = try batch(keepInputs: false)
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { !$0.1.diagnostics.isEmpty }, "nothing without a finding comes back")
        #expect(records.allSatisfy { $0.1.inputs.isEmpty }, "a one-shot check keeps no inputs")
        let found = records.flatMap(\.1.diagnostics)
        #expect(found.contains { $0.rule == "icon.size-mismatch" && $0.path.hasSuffix("b.png") })
        #expect(records.allSatisfy { ran.indices.contains($0.0) })
    }

    @Test func theDaemonAlsoKeepsWhatReadMoreThanItsOwnFile() throws {
        let (_, ran, records) = try batch(keepInputs: true)
        // The set read its folder: kept (a change to an image must re-run it), finding or not.
        #expect(records.contains { ran[$0.0].key.subject.path == Self.set && $0.1.inputs.contains(.listing(Self.set)) })
        // An image evaluation that found nothing and read only its own file is not kept: it is
        // re-run directly when that file changes.
        for (i, record) in records where ran[i].key.subject.path == Self.set + "/a.png" {
            #expect(!record.diagnostics.isEmpty || record.inputs != [.file(Self.set + "/a.png")], "\(ran[i].key.rule)")
        }
        // The context does not record a subject's own file; what is kept has it for a file
        // subject (a change to it re-runs the record) and never for a folder.
        for (i, record) in records {
            let subject = ran[i].key.subject
            #expect(record.inputs.contains(.file(subject.path)) == !subject.kind.isDirectory, "\(ran[i].key.rule) on \(subject.path)")
        }
        #expect(records.contains { !ran[$0.0].key.subject.kind.isDirectory }, "an image's record is among them")
    }
}
