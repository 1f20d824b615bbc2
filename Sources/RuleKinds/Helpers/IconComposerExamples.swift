import ImageFacts
import RuleKit

/// Icon Composer bundles for rule examples (the kinds of Icon/ and IconComposer/ use them).
enum IconComposerExamples {
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
}
