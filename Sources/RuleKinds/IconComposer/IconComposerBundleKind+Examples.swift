import ImageFacts
import RuleKit

extension IconComposerBundleKind {
    /// A bundle shaped like the ones Icon Composer writes (IceCubesApp's AppIcon.icon, trimmed).
    static func bundle(
        at path: String = "App/AppIcon.icon", json: String = document(),
        assets: [String: ExampleFile] = ["cube.png": .png(PNGSpec(width: 1024, height: 1024))]
    ) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = [path + "/icon.json": .text(json)]
        for (name, file) in assets { files[path + "/Assets/" + name] = file }
        return files
    }

    /// An icon.json with one group holding one layer per name (`layers`), plus `extraGroup`
    /// and `extraRoot` fragments written as they are.
    static func document(layers: [String] = ["cube.png"], extraLayer: String = "", extraRoot: String = "") -> String {
        let entries = layers.map {
            """
                    {
                      "glass" : true,
                      "image-name" : "\($0)",
                      "name" : "layer",
                      "position" : { "scale" : 1.24, "translation-in-points" : [ 0, 0 ] }\(extraLayer)
                    }
            """
        }
        return """
            {
              "fill-specializations" : [
                { "value" : "system-light" },
                { "appearance" : "dark", "value" : "system-dark" }
              ],
              "groups" : [
                {
                  "blur-material" : null,
                  "layers" : [
            \(entries.joined(separator: ",\n"))
                  ],
                  "lighting" : "individual",
                  "shadow" : { "kind" : "layer-color", "opacity" : 0.5 },
                  "specular" : true,
                  "translucency" : { "enabled" : true, "value" : 0.84 }
                }
              ],\(extraRoot)
              "supported-platforms" : { "circles" : [ "watchOS" ], "squares" : "shared" }
            }
            """
    }

    static let svg =
        "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1024 1024\">\n  <rect width=\"10\" height=\"10\"/>\n</svg>\n"

    package static let examples: [RuleExample] = [
        RuleExample("a bundle as Icon Composer writes it", files: bundle(), passes: rules.map(\.id)),
        RuleExample(
            "SVG layers whose names hold spaces and non-ASCII letters",
            files: bundle(
                json: document(layers: ["Rounded Rectangle copy 2.svg", "Wolke ☁︎.svg"]),
                assets: ["Rounded Rectangle copy 2.svg": .text(svg), "Wolke ☁︎.svg": .text(svg)]),
            passes: rules.map(\.id)),
        RuleExample(
            "no icon.json", files: ["App/AppIcon.icon/Assets/cube.png": .png(PNGSpec(width: 64, height: 64))],
            triggers: ["iconcomposer.json-invalid"]),
        RuleExample("icon.json is binary", files: bundle(json: "\u{0}\u{1}bplist00\u{FF}"), triggers: ["iconcomposer.json-invalid"]),
        RuleExample(
            "icon.json without groups", files: bundle(json: "{ \"supported-platforms\" : { \"squares\" : \"shared\" } }"),
            triggers: ["iconcomposer.json-invalid"]),
        RuleExample(
            "a layer names a file that is not in Assets/", files: bundle(json: document(layers: ["cube.png", "Front Layer.png"])),
            triggers: ["iconcomposer.asset-missing"]),
        RuleExample(
            "an image-name-specializations value names no file",
            files: bundle(
                json: document(
                    extraLayer: ",\n \"image-name-specializations\" : [ { \"appearance\" : \"dark\", \"value\" : \"cube-dark.png\" } ]")),
            triggers: ["iconcomposer.asset-missing"]),
        RuleExample(
            "an SVG layer that is not XML",
            files: bundle(json: document(layers: ["shape.svg"]), assets: ["shape.svg": .text("<svg viewBox=\"0 0 1 1\"><g></svg>")]),
            triggers: ["iconcomposer.asset-invalid"]),
        RuleExample(
            "an unknown key and a colour that does not parse",
            files: bundle(json: document(extraRoot: "\n  \"fill\" : { \"solid\" : \"srgb:1,0.2\" },\n  \"sparkle\" : true,")),
            triggers: ["iconcomposer.schema"], passes: ["iconcomposer.json-invalid", "iconcomposer.asset-missing"]),
        RuleExample(
            "opacity outside 0–1", files: bundle(json: document(extraLayer: ",\n \"opacity\" : 1.5")), triggers: ["iconcomposer.schema"]),
    ]
}
