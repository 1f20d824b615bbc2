import Foundation
import TestSupport
import Testing

/// Shell completions, run in the real bash with the script `reswatch --generate-completion-script
/// bash` prints: option values (--format, --fail-on), rule ids (asked of the binary) and paths.
@Suite struct CompletionTests {
    func complete(_ line: String, in directory: String? = nil) throws -> [String] {
        let dir = try TempTree()
        let script = try runCommand(Repo.binary, ["--generate-completion-script", "bash"]).stdout
        try script.write(toFile: dir.path + "/reswatch.bash", atomically: true, encoding: .utf8)
        let binDir = (Repo.binary as NSString).deletingLastPathComponent
        let result = try runCommand(
            "/bin/bash",
            [
                "-c",
                """
                cd "$3" && source "$1/reswatch.bash" && read -ra COMP_WORDS <<< "$2"
                [[ "$2" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
                _reswatch reswatch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
                "bash", dir.path, line, directory ?? dir.path,
            ], environment: ["PATH": binDir + ":/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func optionValuesComplete() throws {
        #expect(try complete("reswatch check --format sa") == ["sarif"])
        #expect(try complete("reswatch check --fail-on w") == ["warning"])
        #expect(try complete("reswatch check --min-severity e") == ["error"])
    }

    @Test func ruleIDsComplete() throws {
        #expect(try complete("reswatch check --ignore icon.marketing") == ["icon.marketing-alpha", "icon.marketing-missing"])
        #expect(try complete("reswatch rules explain plist.orie") == ["plist.orientations"])
        #expect(try complete("reswatch fix --only image.not-").contains("image.not-png"))
    }

    @Test func pathsComplete() throws {
        let tree = try TempTree(["App/Info.plist": .text("<plist/>"), "rules.yaml": .text("rules: []\n")])
        #expect(try complete("reswatch check A", in: tree.path).contains("App"))
        #expect(try complete("reswatch daemon A", in: tree.path) == ["App"])
        #expect(try complete("reswatch rules check r", in: tree.path) == ["rules.yaml"])
    }
}
