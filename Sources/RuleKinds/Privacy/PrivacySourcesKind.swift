import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `privacy.manifest-missing`, `privacy.api-undeclared`: a target whose sources use a
/// required-reason API declares its category in the target's privacy manifest (ITMS-91053). A
/// source heuristic: App Store Connect scans the binary, so the message says so and names the file
/// and line of the first use. Sources: Privacy manifests (docs/sources.md).
package struct PrivacySourcesKind: RuleKind {
    package static let name = "privacy-sources"
    package static let summary = "Checks that required-reason APIs a target's sources use are declared in its privacy manifest."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let manifestMissing = RuleInfo(
        id: "privacy.manifest-missing", severity: .warning, code: "ITMS-91053",
        summary:
            "A target's sources use a required-reason API (file timestamps, boot time, disk space, active keyboards, UserDefaults) and the target has no privacy manifest.",
        rationale:
            "App Store Connect: \"Missing API declaration - Your app's code in the … file references one or more APIs that require reasons, including the following API categories: …\" (ITMS-91053). reswatch reads the source, Apple the binary: this is a heuristic.",
        fix: "Add a PrivacyInfo.xcprivacy to the target (File ▸ New ▸ App Privacy) declaring each category with an approved reason.")
    package static let apiUndeclared = RuleInfo(
        id: "privacy.api-undeclared", severity: .warning, code: "ITMS-91053",
        summary: "A target's sources use a required-reason API whose category its privacy manifest does not declare.",
        rationale:
            "App Store Connect sends ITMS-91053 for each category a binary references that its bundle's manifest lacks; reswatch reads the source (a heuristic) and names the first use.",
        fix: "Add an NSPrivacyAccessedAPITypes entry for the category with the reason that describes the use.")

    package static let rules = [manifestMissing, apiUndeclared]
    static let tag = "required-reason-apis"

    package init(parameters: ModuleParameters) {}

    /// One bundle to judge: its name, what it compiles, what it bundles.
    struct Bundle {
        let name: String
        let sources: [String]
        let resources: [String]?
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        // Whether a source is third-party is decided once per folder (a tree has many per folder).
        var ownFolders: [String: Bool] = [:]
        let every = context.subjects(.source).map(\.path)
        let all = every.filter { path in
            let folder = RelativePath.parent(path)
            if let known = ownFolders[folder] { return known }
            let own = PrivacyManifests.isAppsOwn(path, in: context)
            ownFolders[folder] = own
            return own
        }.sorted()
        // The tree's Swift packages the app links: their code is in the app's binary.
        let packages = project.targetName == nil ? [] : project.appLocalPackages
        let linked = packages.isEmpty ? [] : every.filter { s in packages.contains { RelativePath.isWithin(s, $0) } }.sorted()
        guard !all.isEmpty || !linked.isEmpty else { return }
        var bundles: [Bundle] = []
        if project.targetName == nil {
            // No project read: the folder is the app (minus test folders) when a .reswatch.yaml
            // marks it or it has an app Info.plist; a folder of sources with neither (a game
            // engine's C code beside the app's project, a vendored library) is no app, and its
            // context says so ("not an app project").
            guard project.infoPlist != nil || project.isMarked else { return }
            bundles.append(Bundle(name: "the app", sources: all.filter { !Self.isTest($0) }, resources: nil))
        } else {
            // A linked package with a manifest of its own declares for its code; the code of
            // one without is the app's to declare (it is compiled into the app's binary).
            let packageManifests = context.subjects(.privacyManifest).map(\.path).filter { m in
                packages.contains { RelativePath.isWithin(m, $0) }
            }
            let (declaring, undeclaring) = packages.reduce(into: ([String](), [String]())) { out, package in
                if packageManifests.contains(where: { RelativePath.isWithin($0, package) }) {
                    out.0.append(package)
                } else {
                    out.1.append(package)
                }
            }
            let packageSources = { (package: String) in
                linked.filter { RelativePath.isWithin($0, package) && !Self.isPackageTest($0, in: package) }
            }
            if !project.appSources.isEmpty {
                bundles.append(
                    Bundle(
                        name: project.targetName!,
                        sources: Self.members(all, of: project.appSources, excluding: Self.exceptions(project.iconBundles))
                            + undeclaring.flatMap(packageSources),
                        resources: project.ownedPaths))
            } else {
                // Sources on disk, but the target lists none that could be read: said, not passed.
                context.report(
                    EngineRules.notChecked, path: subject.path,
                    message:
                        "\(project.targetName!): no Compile Sources phase or synchronized folder of the target could be read, so its sources were not scanned for required-reason APIs"
                )
            }
            for package in declaring {
                bundles.append(
                    Bundle(
                        name: "the package \(RelativePath.name(package)) that \(project.targetName!) links",
                        sources: packageSources(package),
                        resources: [package]))
            }
            bundles += Self.otherBundles(of: project, sources: all)
        }
        let manifests = context.subjects(.privacyManifest).map(\.path).filter { m in
            PrivacyManifests.isAppsOwn(m, in: context) || packages.contains { RelativePath.isWithin(m, $0) }
        }
        for bundle in bundles { check(bundle, manifests: manifests, in: context) }
    }

    /// Its extensions, its App Clip, and the project's other iOS apps: each is a bundle with a
    /// binary of its own (and a manifest of its own).
    static func otherBundles(of project: ProjectContext, sources all: [String]) -> [Bundle] {
        project.otherTargets.filter { target in
            (target.productType.contains("extension") && !target.productType.contains("watchkit")
                || target.productType == ResolvedTarget.appClipType
                || target.productType == "com.apple.product-type.application" && target.platform == .iOS)
                && !target.sources.isEmpty && [.iOS, .unknown].contains(target.platform)
        }.map { target in
            Bundle(
                name: target.name, sources: members(all, of: target.sources, excluding: exceptions(target.iconBundles)),
                resources: target.resources)
        }
    }

    /// A package's tests, plugins and build folder: not linked into the app.
    static func isPackageTest(_ path: String, in package: String) -> Bool {
        let inside = path.dropFirst(package.count).split(separator: "/")
        return inside.first.map { ["Tests", "Plugins", ".build"].contains(String($0)) } ?? false || isTest(path)
    }

    static func isTest(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { $0.hasSuffix("Tests") || $0 == "Tests" }
    }

    /// The sources inside the target's entries, less its synchronized folders' membership
    /// exceptions: a folder the app and an extension share compiles, for the extension, only
    /// what its exception set does not leave out (issue 58, cause 9).
    static func members(_ sources: [String], of entries: [String], excluding exceptions: [String] = []) -> [String] {
        let included = Set(entries)
        let excluded = Set(exceptions)
        return sources.filter { RelativePath.isWithinAny($0, of: included) && !RelativePath.isWithinAny($0, of: excluded) }
    }

    /// The paths a target's synchronized folders leave out of it (`membershipExceptions`).
    static func exceptions(_ membership: IconBundleMembership?) -> [String] {
        membership?.folders.flatMap(\.excluded) ?? []
    }

    func check(_ bundle: Bundle, manifests: [String], in context: EvaluationContext) {
        var first: [String: (String, RequiredReasonScan.Use)] = [:]
        for source in bundle.sources {
            let scanned: Result<RequiredReasonScan.Uses, SystemError> = context.derived(source, tag: Self.tag) { bytes in
                bytes.map(RequiredReasonScan.scan)
            }
            switch scanned {
            case .failure(let error):
                context.report(
                    EngineRules.unreadable, severity: .info, path: source,
                    message: "not scanned for required-reason APIs: \(error.reason)")
            case .success(let uses):
                for (category, use) in uses.first where first[category] == nil { first[category] = (source, use) }
            }
        }
        guard !first.isEmpty else { return }
        let ordered = first.sorted { $0.key < $1.key }
        let mine = manifests.filter { m in bundle.resources.map { r in r.contains { RelativePath.isWithin(m, $0) } } ?? true }
        guard let manifest = mine.sorted().first else {
            let (file, use) = ordered.map(\.value).min { ($0.0, $0.1.line) < ($1.0, $1.1.line) }!
            let list = ordered.map { "\($0.key) (\($0.value.1.identifier) in \(RelativePath.name($0.value.0)):\($0.value.1.line))" }
            context.report(
                Self.manifestMissing, path: file, line: use.line,
                message:
                    "\(bundle.name) has no privacy manifest, but its sources use required-reason APIs: \(list.joined(separator: ", ")) (a source heuristic: App Store Connect scans the binary)"
            )
            return
        }
        guard case .success(let (value, _)) = context.plist(manifest) else { return }  // privacy.invalid says why
        let declared = Set((value["NSPrivacyAccessedAPITypes"]?.array ?? []).compactMap { $0["NSPrivacyAccessedAPIType"]?.string })
        for (category, (file, use)) in ordered where !declared.contains(category) {
            context.report(
                Self.apiUndeclared, path: manifest, line: 1,
                message:
                    "\(bundle.name)'s manifest does not declare \(category), which its sources use (\(use.identifier) in \(file):\(use.line); a source heuristic: App Store Connect scans the binary)",
                related: [file])
        }
    }
}
