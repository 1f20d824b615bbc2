import Foundation
import ProjectModel
import TestSupport
import Testing

/// XcodeGen's `include:` and `settingGroups` (issue 58): what an included file or a group adds is
/// read as XcodeGen merges it, with the included file's paths relative to its own folder.
@Suite struct XcodeGenIncludeTests {
    let check = XcodeGenProjectTests().check

    @Test func includedFilesAndSettingGroupsAreMergedUnderTheProject() throws {
        let (context, rules) = try check([
            "project.yml": .text(
                """
                name: Sample
                include:
                  - config/base.yml
                  - path: config/absolute.yml
                    relativePaths: false
                settingGroups:
                  Store:
                    ASSETCATALOG_COMPILER_APPICON_NAME: StoreIcon
                targets:
                  Sample:
                    settings:
                      groups: [Store]
                      base:
                        IPHONEOS_DEPLOYMENT_TARGET: "17.0"
                """),
            "config/base.yml": .text(
                """
                options:
                  deploymentTarget:
                    iOS: "15.0"
                targets:
                  Sample:
                    type: application
                    platform: iOS
                    info:
                      path: ../Sources/Info.plist
                    sources: [../Sources]
                    settings:
                      base:
                        TARGETED_DEVICE_FAMILY: "1"
                """),
            "config/absolute.yml": .text(
                """
                targets:
                  Widget:
                    type: app-extension
                    platform: iOS
                    info:
                      path: Widget/Info.plist
                """),
            "Sources/Info.plist": BuildSettingsTests.appPlist,
            "Widget/Info.plist": .text(
                "<plist><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict></dict></plist>"
            ),
        ])
        #expect(context["target"] as? String == "Sample", "the target's type comes from the included file")
        #expect(context["info_plist"] as? String == "Sources/Info.plist", "a path relative to the included file's folder")
        #expect(context["devices"] as? [String] == ["iphone"], "an included setting")
        #expect(context["deployment_target"] as? String == "17.0", "the including file's value wins")
        #expect(context["app_icon"] as? String == "StoreIcon", "a setting group")
        #expect(!rules.contains { $0.hasPrefix("project.xcconfig-invalid") }, "\(rules)")
        #expect(!rules.contains { $0.hasPrefix("project.left-out Widget") }, "the included Widget target names its Info.plist: \(rules)")
    }

    @Test func anIncludeThatCannotBeReadIsSaid() throws {
        let (_, rules) = try check([
            "project.yml": .text("name: S\ninclude: [missing.yml, broken.yml, /etc/passwd]\ntargets: {}\n"),
            "broken.yml": .text("targets: [unclosed\n"),
        ])
        #expect(rules.filter { $0.hasPrefix("project.xcconfig-invalid") }.count == 3, "\(rules)")
    }

    /// Files that include each other: read once per depth, bounded, no hang.
    @Test func includesThatIncludeEachOtherAreBounded() throws {
        let (_, rules) = try check([
            "project.yml": .text("name: S\ninclude: [a.yml]\n"),
            "a.yml": .text("include: [b.yml, b.yml, b.yml]\n"),
            "b.yml": .text("include: [a.yml, a.yml, a.yml]\n"),
        ])
        #expect(rules.contains { $0.hasPrefix("project.xcconfig-invalid") }, "\(rules)")
    }
}
