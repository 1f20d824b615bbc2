import ProjectModel

/// What a fix is asked for: the rules to repair and the choices some repairs need. One reading
/// for `reswatch fix`'s flags and the socket's `fix` params (their checks and messages stay equal).
package struct FixChoices: Sendable {
    /// Repair only these rule ids (nil: every repairable one).
    package var only: Set<String>?
    package var options: RepairOptions

    package init(only: Set<String>? = nil, options: RepairOptions = RepairOptions()) {
        self.only = only
        self.options = options
    }

    /// Reads the choices; `prefix` is how the caller names a field (`--` on the command line).
    package init(only: [String]?, background: String?, singleSize: Bool, prefix: String = "") throws(FixChoiceProblem) {
        var options = RepairOptions(singleSize: singleSize)
        if let background {
            guard let color = RepairOptions.color(background) else {
                throw FixChoiceProblem(message: "\(prefix)background \(background): not a colour (#rrggbb, white or black)")
            }
            options.background = color
        }
        for id in only ?? [] where !Repairer.repairableRules.contains(id) {
            let close = Repairer.repairableRules.filter { EditDistance.isClose(id, $0) }.sorted()
            throw FixChoiceProblem(
                message: "\(prefix)only \(id): no repair for that rule"
                    + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)")
                    + "; repairable: \(Repairer.repairableRules.sorted().joined(separator: ", "))")
        }
        self.init(only: only.map(Set.init), options: options)
    }
}

/// A fix asked for with a colour that is none, or a rule no repair serves.
package struct FixChoiceProblem: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
