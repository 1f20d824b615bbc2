import Foundation
import TestSupport
import Testing

/// The package `make deb` builds (`RESWATCH_RELEASE_CHECKS=1 make test`, as .ci/run runs it, builds
/// it and names it in RESWATCH_DEB; a plain `make test` skips these tests, saying so): lintian
/// finds no error or warning, and unpacked into a temporary root its binary runs without the
/// Swift toolchain's help, checks the example as the source tree does, and its units verify.
@Suite final class DebianPackageTests {
    static let package = ProcessInfo.processInfo.environment["RESWATCH_DEB"]
    static let needsPackage: Comment =
        "needs the Debian package: RESWATCH_RELEASE_CHECKS=1 make test (.ci/run) builds it and sets RESWATCH_DEB"
    static let example = Repo.root + "/Examples/SampleApp"
    var keep: [TempTree] = []

    /// The package unpacked with `dpkg-deb -x`, as dpkg would lay it out.
    func unpacked() throws -> String {
        let root = try TempTree()
        keep.append(root)
        let result = try runCommand("/usr/bin/dpkg-deb", ["-x", try #require(Self.package), root.path])
        #expect(result.status == 0, "\(result.stderr)")
        return root.path
    }

    func findings(_ result: CommandResult) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let list = try #require(object["diagnostics"] as? [[String: Any]])
        return list.map { "\($0["rule"]!) \($0["path"]!):\($0["line"]!) \($0["message"]!)" }
    }

    /// The binary ships stripped; its debug info is the reswatch-dbgsym package's, at the path
    /// its build id names (where gdb and the Swift backtracer look).
    @Test(.enabled(if: package != nil, needsPackage))
    func theBinaryIsStrippedAndItsDebugInfoIsInTheDbgsymPackage() throws {
        let binary = try unpacked() + "/usr/bin/reswatch"
        let sections = try runCommand("/usr/bin/readelf", ["-S", "-W", binary]).stdout
        #expect(!sections.contains(".debug_info") && sections.contains(".gnu_debuglink"), "\(sections)")
        let notes = try runCommand("/usr/bin/readelf", ["-n", binary]).stdout
        let buildID = try #require(notes.firstMatch(of: /Build ID: ([0-9a-f]+)/)?.1)
        let dbgsym = try #require(ProcessInfo.processInfo.environment["RESWATCH_DEB_DBGSYM"], "make test sets RESWATCH_DEB_DBGSYM")
        let fields = try runCommand("/usr/bin/dpkg-deb", ["-f", dbgsym, "Package", "Depends", "Build-Ids"]).stdout
        #expect(fields.contains("reswatch-dbgsym") && fields.contains("Build-Ids: \(buildID)"), "\(fields)")
        let root = try TempTree()
        keep.append(root)
        #expect(try runCommand("/usr/bin/dpkg-deb", ["-x", dbgsym, root.path]).status == 0)
        let debug = root.path + "/usr/lib/debug/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug"
        let debugSections = try runCommand("/usr/bin/readelf", ["-S", "-W", debug])
        #expect(debugSections.status == 0 && debugSections.stdout.contains(".debug_info"), "\(debugSections.stderr)")
        let lintian = try runCommand("/usr/bin/lintian", ["--tag-display-limit", "0", dbgsym])
        let tags = lintian.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(tags.isEmpty, "\(tags.joined(separator: "\n"))")
    }

    @Test(.enabled(if: package != nil, needsPackage))
    func lintianFindsNoErrorOrWarning() throws {
        let result = try runCommand("/usr/bin/lintian", ["--tag-display-limit", "0", try #require(Self.package)])
        let tags = result.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(result.status == 0 && tags.isEmpty, "\(tags.joined(separator: "\n"))\n\(result.stderr)")
    }

    @Test(.enabled(if: package != nil, needsPackage))
    func itHoldsWhatAnInstallNeedsWhereDebianLooks() throws {
        let root = try unpacked()
        for path in [
            "usr/bin/reswatch", "lib/systemd/system/reswatch.service", "lib/systemd/system/reswatch.socket",
            "lib/systemd/system/reswatch@.service", "lib/systemd/system/reswatch@.socket",
            "usr/lib/systemd/user/reswatch.service", "usr/lib/systemd/user/reswatch.socket",
            "usr/lib/sysusers.d/reswatch.conf", "usr/lib/tmpfiles.d/reswatch.conf", "etc/logrotate.d/reswatch",
            "usr/share/man/man1/reswatch.1.gz", "usr/share/man/man1/reswatch.check.1.gz",
            "usr/share/bash-completion/completions/reswatch", "usr/share/zsh/vendor-completions/_reswatch",
            "usr/share/fish/vendor_completions.d/reswatch.fish", "usr/share/doc/reswatch/copyright",
            "usr/share/doc/reswatch/operations.md", "usr/share/doc/reswatch/rules/icon.yaml",
            "usr/share/doc/reswatch/examples/daemon.example.yaml",
        ] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + path), "\(path) is not in the package")
        }
        let control = try runCommand("/usr/bin/dpkg-deb", ["-f", try #require(Self.package), "Depends"]).stdout
        for library in ["libinotifytools0", "libpng16-16", "libjpeg62-turbo", "zlib1g", "libdeflate0", "adduser", "procps"] {
            #expect(control.contains(library), "Depends: \(control)")
        }
        #expect(!control.contains("swift"), "the Swift runtime is inside the binary: \(control)")
        // whatis and apropos find every page under its own name.
        let pages = try FileManager.default.contentsOfDirectory(atPath: root + "/usr/share/man/man1")
        for page in pages {
            let entry = try runCommand("/usr/bin/lexgrog", [root + "/usr/share/man/man1/" + page])
            #expect(
                entry.status == 0 && entry.stdout.contains(": \"\(page.replacingOccurrences(of: ".1.gz", with: "")) - "), "\(entry.stdout)")
        }
    }

    @Test(.enabled(if: package != nil, needsPackage))
    func theUnpackedBinaryRunsAndChecksTheExample() throws {
        let root = try unpacked()
        let binary = root + "/usr/bin/reswatch"
        let home = try TempTree()
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.path]
        let version = try runCommand(binary, ["--version"], environment: environment)
        let treeVersion = try runCommand(Repo.binary, ["--version"]).stdout
        #expect(version.status == 0 && version.stdout == treeVersion)
        let packaged = try runCommand(binary, ["check", "--format", "json", Self.example], environment: environment)
        var treeEnvironment = environment
        treeEnvironment["RESWATCH_SHIPPED_RULES"] = Repo.shippedRules
        let fromTree = try runCommand(Repo.binary, ["check", "--format", "json", Self.example], environment: treeEnvironment)
        #expect(packaged.status == 1, "\(packaged.stderr)")
        let found = try findings(packaged)
        #expect(found.count >= 7, "the example's deliberate defects are found")
        #expect(found == (try findings(fromTree)))
    }

    @Test(
        .enabled(
            if: package != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
            "make test builds the package and installs systemd"))
    func theUnpackedUnitsVerify() throws {
        let root = try unpacked()
        let binary = root + "/usr/bin/reswatch"
        let checks: [(folder: String, units: [String], user: Bool)] = [
            ("lib/systemd/system", ["reswatch.service", "reswatch.socket"], false),
            ("lib/systemd/system", ["reswatch@.service", "reswatch@.socket"], false),
            ("usr/lib/systemd/user", ["reswatch.service", "reswatch.socket"], true),
        ]
        for check in checks {
            let copies = try TempTree()
            for unit in check.units {
                let text = try String(contentsOfFile: "\(root)/\(check.folder)/\(unit)", encoding: .utf8)
                if unit.hasSuffix(".service") {
                    #expect(text.contains("\nExecStart=/usr/bin/reswatch daemon "), "\(unit) starts the packaged binary")
                    for document in text.split(separator: "\n").filter({ $0.hasPrefix("Documentation=") }).flatMap({
                        $0.split(separator: " ")
                    }) {
                        let path = String(document.split(separator: ":").last ?? "")
                        #expect(FileManager.default.fileExists(atPath: root + path), "\(unit) documents \(path), not in the package")
                    }
                }
                // Named for an instance (verify needs one) and started from the unpacked binary.
                try text.replacingOccurrences(of: "/usr/bin/reswatch", with: binary).write(
                    toFile: copies.path + "/" + unit.replacingOccurrences(of: "@.", with: "@ios-team."), atomically: true, encoding: .utf8)
            }
            let paths = check.units.map { copies.path + "/" + $0.replacingOccurrences(of: "@.", with: "@ios-team.") }
            let result = try runCommand(
                "/usr/bin/systemd-analyze", (check.user ? ["--user"] : []) + ["verify"] + paths,
                environment: ["XDG_RUNTIME_DIR": "/tmp", "PATH": "/usr/bin:/bin"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(paths): \(result.stderr)")
        }
    }

    @Test(.enabled(if: package != nil, needsPackage))
    func maintainerScriptsParseAndEnableNothing() throws {
        let control = try TempTree()
        #expect(try runCommand("/usr/bin/dpkg-deb", ["-e", try #require(Self.package), control.path]).status == 0)
        for script in ["postinst", "postrm"] {
            #expect(try runCommand("/bin/sh", ["-n", control.path + "/" + script]).status == 0, "\(script) parses")
            let text = try String(contentsOfFile: control.path + "/" + script, encoding: .utf8)
            let commands = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            let starts = commands.filter {
                $0.contains("systemctl enable") || $0.contains("start") || $0.contains("deb-systemd-helper enable")
            }
            #expect(starts.isEmpty, "\(script) enables or starts nothing (the daemon needs its config first): \(starts)")
        }
        let conffiles = try String(contentsOfFile: control.path + "/conffiles", encoding: .utf8)
        #expect(conffiles.split(separator: "\n") == ["/etc/logrotate.d/reswatch"])
    }
}
