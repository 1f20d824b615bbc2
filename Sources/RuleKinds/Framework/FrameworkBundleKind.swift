import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `framework.version-keys`, `framework.minimum-os`: the Info.plist of each prebuilt iOS framework
/// of an app's project (a loose `.framework` built for iPhoneOS, or the device slice of an
/// `.xcframework`), as App Store Connect reads it in `X.app/Frameworks/` (requirements-2026.md
/// 4.1, 4.2, VERIFIED). Simulator, Mac Catalyst and other platforms' slices ship in no iOS app.
/// `MinimumOSVersion` must be the minimum the binary's load commands give (`MachOKind`).
package struct FrameworkBundleKind: RuleKind {
    package static let name = "framework-bundles"
    package static let summary =
        "Checks each prebuilt iOS framework's Info.plist: its versions (ITMS-90056, ITMS-90057) and its MinimumOSVersion (ITMS-90208)."
    package static let subjects: Set<SubjectKind> = [.framework]

    package static let versionKeys = RuleInfo(
        id: "framework.version-keys", severity: .error, code: "ITMS-90057",
        summary:
            "A prebuilt iOS framework's Info.plist lacks CFBundleShortVersionString (ITMS-90057) or CFBundleVersion (ITMS-90056), or one is not one to three period-separated integers.",
        rationale:
            "App Store Connect validates each embedded framework's bundle: \"code=STATE_ERROR.VALIDATION_ERROR.90057\" for a missing CFBundleShortVersionString, 90056 for CFBundleVersion, and the format of plist.version-format (requirements-2026.md 4.1).",
        fix: "Add the versions to the framework's Info.plist (or take a release of it that has them).")
    package static let minimumOS = RuleInfo(
        id: "framework.minimum-os", severity: .error, code: "ITMS-90208",
        summary:
            "A prebuilt iOS framework's MinimumOSVersion is missing, empty, not what its binary was built for (LC_BUILD_VERSION), or above the app's deployment target.",
        rationale:
            "\"ITMS-90208: Invalid Bundle - The bundle … .framework does not support the minimum OS Version specified in the Info.plist\"; a missing key is ITMS-90360, an empty one ITMS-90530 (requirements-2026.md 4.2).",
        fix:
            "Give the framework's Info.plist the MinimumOSVersion its binary was built for, at or below the app's deployment target (or raise the app's)."
    )
    package static let rules = [versionKeys, minimumOS]

    package init(parameters: ModuleParameters) {}

    package func applies(to subject: Subject) -> Bool { Self.isIOSDeviceBundle(subject.path) != false }

    /// false for a slice of an xcframework that no iOS device build takes (simulator, Mac
    /// Catalyst, another platform); true for an iOS device slice; nil for a loose framework.
    static func isIOSDeviceBundle(_ path: String) -> Bool? {
        let parent = RelativePath.parent(path)
        guard RelativePath.name(RelativePath.parent(parent)).hasSuffix(".xcframework") else { return nil }
        let slice = RelativePath.name(parent)
        return slice.hasPrefix("ios-") && !slice.contains("simulator") && !slice.contains("maccatalyst")
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard project.targetName != nil, project.noAppReason == nil, Self.isIOSDeviceBundle(subject.path) != false else { return }
        let plistPath = RelativePath.join(subject.path, "Info.plist")
        guard context.exists(plistPath), case .success(let (value, _)) = context.plist(plistPath), let plist = value.dictionary else {
            return  // a macOS layout (Versions/A) or a plist that does not parse (not an iOS bundle we can read)
        }
        let platforms = plist["CFBundleSupportedPlatforms"]?.array?.compactMap(\.string) ?? []
        // A loose framework is judged when it says it is built for iOS devices.
        if Self.isIOSDeviceBundle(subject.path) == nil, !platforms.contains("iPhoneOS") { return }
        let name = RelativePath.name(subject.path)
        // Only a dynamic framework is embedded: a static one is linked into the app's binary and
        // its Info.plist ships nowhere (Firebase's say MinimumOSVersion 100.0 on purpose).
        let base = String(name.dropLast(".framework".count))
        let binary = RelativePath.join(subject.path, plist["CFBundleExecutable"]?.string.flatMap { $0.contains("/") ? nil : $0 } ?? base)
        let binaryMinimum: String?
        switch context.derived(binary, tag: "macho-kind", compute: { $0.map(MachOKind.of) }) {
        case .success(.dynamic(let minimum)): binaryMinimum = minimum
        case .success(.staticLibrary): return
        case .success(.unknown(let why)):
            context.report(
                EngineRules.notChecked, path: plistPath, line: 1,
                message:
                    "\(name): its binary \(RelativePath.name(binary)) \(why): whether the app embeds it cannot be told, so its Info.plist was not judged"
            )
            return
        case .failure(let error):
            context.report(
                EngineRules.notChecked, path: plistPath, line: 1,
                message:
                    "\(name): its binary \(RelativePath.name(binary)) cannot be read (\(error.reason)): whether the app embeds it cannot be told, so its Info.plist was not judged"
            )
            return
        }
        for (key, code) in [("CFBundleShortVersionString", "ITMS-90057"), ("CFBundleVersion", "ITMS-90056")] {
            guard let text = plist[key]?.text else {
                context.report(Self.versionKeys, path: plistPath, key: key, message: "\(name) has no \(key) (\(code))")
                continue
            }
            if !text.contains("$"), !VersionFormatKind.isValid(text) {
                context.report(
                    Self.versionKeys, path: plistPath, key: key,
                    message: "\(name)'s \(key) is \"\(text)\": App Store Connect wants one to three period-separated integers")
            }
        }
        switch plist["MinimumOSVersion"]?.text {
        case nil:
            context.report(
                Self.minimumOS, path: plistPath, key: "MinimumOSVersion", message: "\(name) has no MinimumOSVersion (ITMS-90360)")
        case let text? where text.trimmingCharacters(in: .whitespaces).isEmpty:
            context.report(
                Self.minimumOS, path: plistPath, key: "MinimumOSVersion", message: "\(name)'s MinimumOSVersion is empty (ITMS-90530)")
        case let text?:
            guard let version = OSVersion(text) else { return }
            // The key must say what the binary was built for (ITMS-90208: 17.0 in the plist, 13.0 in the binary).
            if let binaryMinimum, let built = OSVersion(binaryMinimum), built != version {
                context.report(
                    Self.minimumOS, path: plistPath, key: "MinimumOSVersion",
                    message: "\(name)'s MinimumOSVersion is \(text), but its binary was built for iOS \(binaryMinimum) (LC_BUILD_VERSION)")
                return
            }
            guard project.sources["deployment-target"] != .defaults, version > project.deploymentTarget else { return }
            context.report(
                Self.minimumOS, path: plistPath, key: "MinimumOSVersion",
                message:
                    "\(name)'s MinimumOSVersion is \(text), above the app's deployment target \(project.deploymentTarget) (\(project.deploymentTargetBecause))"
            )
        }
    }
}

extension FrameworkBundleKind {
    /// An arm64 Mach-O dynamic library built for iOS 13.0.
    static let dylib = ExampleFile.bytes(MachOKind.example(minimumIOS: (13, 0)))
    static let archive = ExampleFile.text("!<arch>\n/               0           0     0     0       4         `\n")

    static func framework(_ body: String, at path: String = "App/Frameworks/Kit.framework", binary: ExampleFile = dylib) -> [String:
        ExampleFile]
    {
        [
            "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; IPHONEOS_DEPLOYMENT_TARGET = 15.0;"),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
            path + "/Info.plist": ExampleTrees.plist(body), path + "/Kit": binary,
        ]
    }
    static let device = "<key>CFBundleSupportedPlatforms</key><array><string>iPhoneOS</string></array>"
    static let good =
        device
        + "<key>CFBundleShortVersionString</key><string>2.1.0</string><key>CFBundleVersion</key><string>7</string><key>MinimumOSVersion</key><string>13.0</string>"

    package static let examples: [RuleExample] = [
        RuleExample("an iOS framework with its versions and a minimum below the app's", files: framework(good), passes: rules.map(\.id)),
        RuleExample(
            "an iOS framework without versions or a minimum", files: framework(device + "<key>CFBundleName</key><string>Kit</string>"),
            triggers: rules.map(\.id)),
        RuleExample(
            "a framework that needs iOS 17 in an app for iOS 15",
            files: framework(good.replacingOccurrences(of: "<string>13.0</string>", with: "<string>17.0</string>")),
            triggers: ["framework.minimum-os"], passes: ["framework.version-keys"]),
        RuleExample(
            "a MinimumOSVersion that is not what the binary was built for",
            files: framework(good.replacingOccurrences(of: "<string>13.0</string>", with: "<string>12.0</string>")),
            triggers: ["framework.minimum-os"]),
        RuleExample(
            "a version with a suffix", files: framework(good.replacingOccurrences(of: "2.1.0", with: "2.1.0-beta")),
            triggers: ["framework.version-keys"]),
        RuleExample(
            "a static framework is linked, not embedded: its Info.plist ships nowhere",
            files: framework(device + "<key>MinimumOSVersion</key><string>100.0</string>", binary: archive), passes: rules.map(\.id)),
        RuleExample(
            "a framework whose binary is not a Mach-O library is said, not judged",
            files: framework(device, binary: .text("#!/bin/sh\n")), triggers: ["project.not-checked"], passes: rules.map(\.id)),
        RuleExample(
            "the simulator slice of an xcframework is in no iOS app",
            files: framework(device, at: "App/Kit.xcframework/ios-arm64_x86_64-simulator/Kit.framework"), passes: rules.map(\.id)),
        RuleExample(
            "the device slice of an xcframework is judged",
            files: framework(device, at: "App/Kit.xcframework/ios-arm64/Kit.framework"), triggers: rules.map(\.id)),
    ]
}
