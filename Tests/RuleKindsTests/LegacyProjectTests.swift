import Foundation
import ImageFacts
import ProjectModel
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// A legacy iOS 6 iPhone project (Ad Hoc) that follows the seeds exactly reports no error and no warning.
@Suite struct LegacyProjectTests {
    /// QA1686 Tables 1 and 2 (iPhone-only, deployment target 6.1 or earlier), every file.
    static let icons: [String: Int] = [
        "Icon.png": 57, "Icon@2x.png": 114, "Icon-60@2x.png": 120, "Icon-60@3x.png": 180, "Icon-72.png": 72, "Icon-72@2x.png": 144,
        "Icon-76.png": 76, "Icon-76@2x.png": 152, "Icon-Small.png": 29, "Icon-Small@2x.png": 58, "Icon-Small@3x.png": 87,
        "Icon-Small-40.png": 40, "Icon-Small-40@2x.png": 80, "Icon-Small-40@3x.png": 120, "Icon-Small-50.png": 50,
        "Icon-Small-50@2x.png": 100,
    ]

    static func project() -> [String: ExampleFile] {
        var files: [String: ExampleFile] = [:]
        for (name, px) in icons { files["Legacy/Resources/\(name)"] = .png(PNGSpec(width: px, height: px)) }
        files["Legacy/Resources/Default.png"] = .png(PNGSpec(width: 320, height: 480))
        files["Legacy/Resources/Default@2x.png"] = .png(PNGSpec(width: 640, height: 960))
        files["Legacy/Resources/Default-568h@2x.png"] = .png(PNGSpec(width: 640, height: 1136))
        // QA1686's Ad Hoc column: an App Store build today must take its 1024 icon from an asset
        // catalog (ITMS-90704), which a loose-icon project has not; Ad Hoc carries iTunesArtwork.
        files["Legacy/.reswatch.yaml"] = .text("distribution: ad-hoc\n")
        files["Legacy/Resources/iTunesArtwork"] = .png(PNGSpec(width: 512, height: 512))
        files["Legacy/Resources/iTunesArtwork@2x"] = .png(PNGSpec(width: 1024, height: 1024))
        let names = ["Icon", "Icon-60", "Icon-72", "Icon-76", "Icon-Small", "Icon-Small-40", "Icon-Small-50"]
        files["Legacy/Info.plist"] = .text(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CFBundleDisplayName</key><string>Legacy</string>
            \t<key>CFBundleName</key><string>Legacy</string>
            \t<key>CFBundleIdentifier</key><string>com.example.legacy</string>
            \t<key>CFBundleIconFiles</key>
            \t<array>\(names.map { "<string>\($0)</string>" }.joined())</array>
            \t<key>CFBundleIcons</key>
            \t<dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key>
            \t<array>\(names.map { "<string>\($0)</string>" }.joined())</array></dict></dict>
            \t<key>MinimumOSVersion</key><string>6.0</string>
            \t<key>UIDeviceFamily</key><array><integer>1</integer></array>
            \t<key>UIRequiredDeviceCapabilities</key><array><string>armv7</string></array>
            \t<key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPortrait</string></array>
            </dict>
            </plist>
            """)
        return files
    }

    @Test func followsTheSeedsAndReportsNothing() throws {
        let engine = try TempTree(Self.project()).engine()
        let context = try #require(engine.projectContexts.first { $0.directory == "Legacy" })
        #expect(context.devices == [.iphone] && context.deploymentTarget == OSVersion(6, 0) && context.infoPlist == "Legacy/Info.plist")
        // The rules about building with the iOS 27 SDK (issue 59) judge what Xcode 27 will refuse,
        // which the 2012 seeds could not foresee: everything else is silent.
        let sdk27: Set<String> = ["launch.images-only", "plist.scene-manifest-missing"]
        let problems = engine.diagnostics.filter { $0.severity >= .warning && !sdk27.contains($0.rule) }
        #expect(problems.isEmpty, "\(problems.map { "\($0.rule) \($0.path): \($0.message)" })")
    }

    @Test func andEachDeviationIsCaught() throws {
        var noTall = Self.project()
        noTall["Legacy/Resources/Default-568h@2x.png"] = nil
        #expect(try TempTree(noTall).engine().diagnostics.contains { $0.rule == "launch.iphone5-missing" })
        var noIcon = Self.project()
        noIcon["Legacy/Resources/Icon.png"] = nil
        #expect(try TempTree(noIcon).engine().diagnostics.contains { $0.rule == "icon.missing-required" && $0.message.contains("57x57") })
        var withExtensions = Self.project()
        withExtensions["Legacy/Info.plist"] = .text(
            "<?xml version=\"1.0\"?><plist><dict><key>CFBundleIconFiles</key><array><string>Icon.png</string><string>Icon-60.png</string></array><key>MinimumOSVersion</key><string>6.0</string><key>UIDeviceFamily</key><array><integer>1</integer></array></dict></plist>"
        )
        #expect(
            try TempTree(withExtensions).engine().diagnostics.contains {
                $0.rule == "plist.invalid-image-path" && $0.message.contains("Icon-60.png")
            })
    }
}

/// iOS finds the fixed icon names by name, listed or not (seed 001).
@Suite struct FixedIconNameTests {
    @Test func aThreeEraAppsUnlistedIconSmallFillsItsSlot() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIconFiles</key><array><string>Icon.png</string><string>Icon@2x.png</string></array>
            </dict></plist>
            """
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"3.0\"\ndistribution: ad-hoc\n"),
            "App/Info.plist": .text(plist),
            "App/Icon.png": .png(PNGSpec(width: 57, height: 57)), "App/Icon@2x.png": .png(PNGSpec(width: 114, height: 114)),
            "App/Icon-Small.png": .png(PNGSpec(width: 29, height: 29)), "App/Icon-Small@2x.png": .png(PNGSpec(width: 58, height: 58)),
            "App/Settings.bundle/Root.plist": .text(plist),
        ])
        let found = tree.engine().diagnostics
        #expect(!found.contains { $0.rule == "icon.stray-template" }, "\(found.map(\.message))")
        #expect(!found.contains { $0.rule == "icon.missing-recommended" && ($0.message.contains("29x29") || $0.message.contains("58x58")) })
        let small = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"3.0\"\ndistribution: ad-hoc\n"),
            "App/Info.plist": .text(plist),
            "App/Icon.png": .png(PNGSpec(width: 57, height: 57)), "App/Icon-Small.png": .png(PNGSpec(width: 30, height: 30)),
        ])
        #expect(
            small.engine().diagnostics.contains { $0.rule == "icon.size-mismatch" && $0.path == "App/Icon-Small.png" },
            "a fixed-name file is judged as the icon it is")
    }
}
