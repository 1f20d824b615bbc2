import Findings
import RuleKit
import SystemCalls

/// `privacy.sdk-version-without-manifest`: a lockfile of the project pins an SDK on Apple's list
/// at a version older than the first that ships a privacy manifest (ITMS-91061;
/// requirements-2026.md 4.4). The versions are data (`rules/privacy.yaml`, `sdk-manifest-versions`),
/// each row with its source; an SDK without a sourced row is not judged. One finding per SDK.
package struct SDKVersionsKind: RuleKind {
    package static let name = "sdk-versions"
    package static let summary =
        "Checks the lockfiles (Podfile.lock, Package.resolved, Cartfile.resolved) for listed SDKs pinned below the first version with a privacy manifest (ITMS-91061)."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let old = RuleInfo(
        id: "privacy.sdk-version-without-manifest", severity: .warning, code: "ITMS-91061",
        summary: "A lockfile pins an SDK on Apple's list at a version older than the first that ships a privacy manifest.",
        rationale:
            "App Store Connect: \"ITMS-91061: Missing privacy manifest - Your app includes … an SDK that was identified … as a commonly used third-party SDK\" for a new app or an update that adds one; its publisher's releases from the version given carry the manifest (requirements-2026.md 4.4).",
        fix: "Update the SDK to the version the finding names or later (pod update, File → Packages → Update, carthage update).")
    package static let rules = [old]
    package static let parameters = [
        "versions": "per SDK: sdk, first (the first version with a manifest), source, and its names in pods, packages, carthage"
    ]

    struct Row {
        let sdk: String
        let first: String
        let source: String
        let names: Set<String>
    }

    let rows: [Row]
    static let largest = 4 << 20

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        var rows: [Row] = []
        for entry in try p.list("versions") ?? [] {
            let sdk = try entry.requiredString("sdk")
            let first = try entry.requiredString("first")
            let source = try entry.requiredString("source")
            guard source.hasPrefix("https://") else {
                throw entry.error("versions: \(sdk): source must be the address that gives the version")
            }
            let names = (try entry.strings("pods") ?? []) + (try entry.strings("packages") ?? []) + (try entry.strings("carthage") ?? [])
            rows.append(Row(sdk: sdk, first: first, source: source, names: Set(names.map { $0.lowercased() })))
        }
        self.rows = rows
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard subject.path == project.directory, project.noAppReason == nil, !rows.isEmpty else { return }
        var said = Set<String>()
        for (file, pins) in lockfiles(in: project.directory, context) {
            for pin in pins {
                guard let row = rows.first(where: { $0.names.contains(pin.name.lowercased()) }), !said.contains(row.sdk),
                    Lockfiles.isBelow(pin.version, row.first) == true
                else { continue }
                said.insert(row.sdk)
                context.report(
                    Self.old, path: file, line: pin.line,
                    message:
                        "\(RelativePath.name(file)) pins \(row.sdk) \(pin.version); its privacy manifest ships from \(row.first) (\(row.source))"
                )
            }
        }
    }

    /// The project's lockfiles and their pins: beside the project, and the workspaces' and
    /// projects' SwiftPM `Package.resolved`.
    func lockfiles(in dir: String, _ context: EvaluationContext) -> [(String, [LockedDependency])] {
        var out: [(String, [LockedDependency])] = []
        func bytes(_ path: String) -> [UInt8]? {
            let bytes: [UInt8]
            switch context.read(path) {
            case .success(let b): bytes = b
            case .failure(let error):
                // Absent is the common case; one that is there and cannot be read (a FIFO, a
                // directory, no permission) is said: its pins were not checked.
                if error.errno != 2 {
                    context.report(
                        EngineRules.unreadable, path: path, message: "\(RelativePath.name(path)) cannot be read: \(error.reason)")
                }
                return nil
            }
            // No lockfile comes near 4 MiB; a larger one is said, not parsed.
            guard bytes.count <= Self.largest else {
                context.report(EngineRules.unreadable, path: path, message: "\(RelativePath.name(path)) is larger than 4 MiB: not read")
                return nil
            }
            return bytes
        }
        func text(_ path: String) -> String? { bytes(path).map { String(decoding: $0, as: UTF8.self) } }
        let pods = RelativePath.join(dir, "Podfile.lock")
        if let t = text(pods) { out.append((pods, Lockfiles.podfileLock(t))) }
        let carthage = RelativePath.join(dir, "Cartfile.resolved")
        if let t = text(carthage) { out.append((carthage, Lockfiles.cartfileResolved(t))) }
        let wanted = Set(rows.flatMap(\.names))
        var resolved = [RelativePath.join(dir, "Package.resolved")]
        if case .success(let entries) = context.list(dir) {
            for e in entries where e.isDirectory && (e.name.hasSuffix(".xcworkspace") || e.name.hasSuffix(".xcodeproj")) {
                let folder = RelativePath.join(dir, e.name)
                let inner = e.name.hasSuffix(".xcodeproj") ? RelativePath.join(folder, "project.xcworkspace") : folder
                resolved.append(RelativePath.join(inner, "xcshareddata/swiftpm/Package.resolved"))
            }
        }
        for path in resolved {
            if let b = bytes(path) { out.append((path, Lockfiles.packageResolved(b, wanted: wanted))) }
        }
        return out
    }

    package static let examples: [RuleExample] = {
        let app: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;"),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
        ]
        let podfile = { (version: String) in
            ExampleFile.text("PODS:\n  - Alamofire (\(version))\n  - GTMSessionFetcher/Core (3.4.1)\n\nDEPENDENCIES:\n  - Alamofire\n")
        }
        let resolved = { (version: String) in
            ExampleFile.text(
                "{\n  \"pins\" : [\n    {\n      \"identity\" : \"kingfisher\",\n      \"kind\" : \"remoteSourceControl\",\n      \"location\" : \"https://github.com/onevcat/Kingfisher.git\",\n      \"state\" : {\n        \"version\" : \"\(version)\"\n      }\n    }\n  ],\n  \"version\" : 2\n}\n"
            )
        }
        return [
            RuleExample(
                "pods at versions with manifests", files: app.merging(["Podfile.lock": podfile("5.9.1")]) { a, _ in a },
                passes: rules.map(\.id)),
            RuleExample(
                "Alamofire 5.8.1 in Podfile.lock", files: app.merging(["Podfile.lock": podfile("5.8.1")]) { a, _ in a },
                triggers: rules.map(\.id)),
            RuleExample(
                "Kingfisher 7.8.2 in the project's Package.resolved",
                files: app.merging(["App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": resolved("7.8.2")]) { a, _ in
                    a
                },
                triggers: rules.map(\.id)),
            RuleExample(
                "Kingfisher 8.1.0 in Package.resolved",
                files: app.merging(["App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": resolved("8.1.0")]) { a, _ in
                    a
                },
                passes: rules.map(\.id)),
            RuleExample(
                "Alamofire 5.8.0 in Cartfile.resolved",
                files: app.merging(["Cartfile.resolved": .text("github \"Alamofire/Alamofire\" \"5.8.0\"\n")]) { a, _ in a },
                triggers: rules.map(\.id)),
        ]
    }()
}
