import ArgumentParser
import SystemCalls

/// `--rules DIR` (repeatable), shared by every command that loads rules: declared and validated
/// once. The directories' modules load after the built-in ones and the system and user folders.
struct ExtraRules: ParsableArguments {
    @Option(name: .customLong("rules"), help: "Extra rule module directory (repeatable); loaded last.", completion: .directory)
    var rules: [String] = []

    func validate() throws {
        for dir in rules where !RuleLocations.isDirectory(dir) {
            throw ValidationError("--rules \(FileName.display(dir)): not a directory")
        }
    }
}
