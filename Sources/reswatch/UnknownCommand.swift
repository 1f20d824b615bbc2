import ArgumentParser
import ProjectModel
import SystemCalls

/// `reswatch chek`: ArgumentParser says only "Unexpected argument"; this names the nearest command.
enum UnknownCommand {
    /// The message for a command line whose command (or subcommand) is not one, nil when it is.
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root.configuration.commandName ?? "reswatch"]
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return nil }
            if let next = subcommands.first(where: { $0._commandName == argument }) {
                command = next
                path.append(argument)
                continue
            }
            let names = subcommands.map { $0._commandName }
            let ranked = names.map { ($0, EditDistance.distance(argument.lowercased(), $0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            // A short list of names: the nearest within two edits (a swap of two letters is two).
            let close = ranked.filter { $0.1 <= max(2, argument.count / 3) || $0.0.hasPrefix(argument) }.map(\.0)
            let hint = close.first.map { " Did you mean '\(path.joined(separator: " ")) \($0)'?" } ?? ""
            return "Error: '\(FileName.display(argument))' is not a command of \(path.joined(separator: " ")).\(hint)\n"
                + "Commands: \(names.joined(separator: ", ")). See '\(path.joined(separator: " ")) --help'."
        }
        return nil
    }
}
