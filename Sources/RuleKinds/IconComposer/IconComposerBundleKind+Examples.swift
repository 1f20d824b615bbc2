import ImageFacts
import RuleKit

extension IconComposerBundleKind {
    package static let examples: [RuleExample] = [
        RuleExample("a bundle as Icon Composer writes it", files: IconComposerExamples.bundle(), passes: rules.map(\.id)),
        RuleExample(
            "SVG layers whose names hold spaces and non-ASCII letters",
            files: IconComposerExamples.bundle(
                json: IconComposerExamples.document(layers: ["Rounded Rectangle copy 2.svg", "Wolke ☁︎.svg"]),
                assets: ["Rounded Rectangle copy 2.svg": .text(IconComposerExamples.svg), "Wolke ☁︎.svg": .text(IconComposerExamples.svg)]),
            passes: rules.map(\.id)),
        RuleExample(
            "no icon.json", files: ["App/AppIcon.icon/Assets/cube.png": .png(PNGSpec(width: 64, height: 64))],
            triggers: ["iconcomposer.json-invalid"]),
        RuleExample(
            "icon.json is binary", files: IconComposerExamples.bundle(json: "\u{0}\u{1}bplist00\u{FF}"),
            triggers: ["iconcomposer.json-invalid"]),
        RuleExample(
            "icon.json without groups",
            files: IconComposerExamples.bundle(json: "{ \"supported-platforms\" : { \"squares\" : \"shared\" } }"),
            triggers: ["iconcomposer.json-invalid"]),
        RuleExample(
            "a layer names a file that is not in Assets/",
            files: IconComposerExamples.bundle(json: IconComposerExamples.document(layers: ["cube.png", "Front Layer.png"])),
            triggers: ["iconcomposer.asset-missing"]),
        RuleExample(
            "an image-name-specializations value names no file",
            files: IconComposerExamples.bundle(
                json: IconComposerExamples.document(
                    extraLayer: ",\n \"image-name-specializations\" : [ { \"appearance\" : \"dark\", \"value\" : \"cube-dark.png\" } ]")),
            triggers: ["iconcomposer.asset-missing"]),
        RuleExample(
            "an SVG layer that is not XML",
            files: IconComposerExamples.bundle(
                json: IconComposerExamples.document(layers: ["shape.svg"]),
                assets: ["shape.svg": .text("<svg viewBox=\"0 0 1 1\"><g></svg>")]),
            triggers: ["iconcomposer.asset-invalid"]),
        RuleExample(
            "an unknown key and a colour that does not parse",
            files: IconComposerExamples.bundle(
                json: IconComposerExamples.document(extraRoot: "\n  \"fill\" : { \"solid\" : \"srgb:1,0.2\" },\n  \"sparkle\" : true,")),
            triggers: ["iconcomposer.schema"], passes: ["iconcomposer.json-invalid", "iconcomposer.asset-missing"]),
        RuleExample(
            "opacity outside 0–1",
            files: IconComposerExamples.bundle(json: IconComposerExamples.document(extraLayer: ",\n \"opacity\" : 1.5")),
            triggers: ["iconcomposer.schema"]),
    ]
}
