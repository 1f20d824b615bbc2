import ArgumentParser

@main
struct Reswatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reswatch",
        abstract: "Validates iOS app resources (icons, launch images, Info.plist, asset catalogs) on Linux.",
        discussion: """
            Rule ids, severities and ITMS codes follow Apple's icon and launch-image tables; see docs/rules.md.
            Exit status of check: 0 no errors, 1 errors found, 2 could not run as asked.
            """,
        version: ReswatchVersion.string,
        subcommands: [CheckCommand.self, RulesCommand.self]
    )
}

enum ReswatchVersion {
    static let string = "0.1.0"
}
