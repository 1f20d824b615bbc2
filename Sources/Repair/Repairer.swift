import Findings
import ProjectModel
import RuleEngine
import SystemCalls

/// Plans the repairs of one root's findings.
package enum Repairer {
    /// Every repair kind, in the order they run.
    package static let kinds: [any RepairKind.Type] = [
        IconNameKeyRepair.self, FilenameCaseRepair.self, UnassignedFileRepair.self, JPEGNamedPNGRepair.self,
        PrivacyCategoryRepair.self, OrientationsAdvice.self, StoryboardExtensionRepair.self, StoreIconAlphaRepair.self,
        PNGReencodeRepair.self, IconSizeRepair.self, ExtensionDisplayNameRepair.self, InfoPlistStringsCaseRepair.self,
        ExtensionVersionRepair.self, ExtensionObsoleteKeysRepair.self,
    ]

    /// The repairs of rules that need the project's targets, by rule (`RepairKind.needsProject`).
    package static var projectRepairs: [String: String] {
        var out: [String: String] = [:]
        for kind in kinds { if let title = kind.needsProject { for rule in kind.rules { out[rule] = title } } }
        return out
    }

    /// The rules some kind repairs (at least in some cases).
    package static var repairableRules: Set<String> { kinds.reduce(into: Set<String>()) { $0.formUnion($1.rules) } }

    /// `only`: the rule ids to repair (nil: all).
    package static func plan(
        root: String, diagnostics: [Diagnostic], projects: [ProjectContext], only: Set<String>? = nil,
        options: RepairOptions = RepairOptions()
    ) -> RepairPlan {
        let context = RepairContext(root: root, projects: projects, options: options)
        var plan = RepairPlan(root: root)
        var ordered = diagnostics.sorted(by: Diagnostic.stableOrder)
        if options.singleSize {
            // A set made single-size first: the other repairs then see its one entry, and do not
            // fill slots the conversion drops.
            ordered = ordered.filter { IconSizeRepair.rules.contains($0.rule) } + ordered.filter { !IconSizeRepair.rules.contains($0.rule) }
        }
        for finding in ordered where only?.contains(finding.rule) ?? true {
            guard let kind = kinds.first(where: { $0.rules.contains(finding.rule) }) else {
                // Counted among the findings that remain, so listed with them (never only counted).
                if finding.severity >= .warning {
                    plan.left.append(
                        Unrepaired(
                            finding: finding,
                            reason:
                                "reswatch has no repair for \(finding.rule): the edit is a person's (reswatch rules explain \(finding.rule))"
                        ))
                }
                continue
            }
            // A file that goes, or a file-missing for an entry a single-size conversion dropped.
            if context.isRemoved(finding.path)
                || (finding.rule == "icon.file-missing" && context.convertedSets.contains(RelativePath.parent(finding.path)))
            {
                plan.alsoRepaired.append(finding)
                continue
            }
            switch kind.repair(finding, in: context) {
            case .repair(let title, let changes): plan.repairs.append(Repair(finding: finding, title: title, changes: changes))
            case .alreadyRepaired: plan.alsoRepaired.append(finding)
            case .leave(let reason): plan.left.append(Unrepaired(finding: finding, reason: reason))
            }
        }
        return plan
    }
}
