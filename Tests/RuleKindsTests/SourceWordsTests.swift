import TestSupport
import Testing

@testable import RuleKinds

/// The words plist.scene-manifest-missing reads in sources (`SceneLifecycleKind.words`), read as
/// bytes: the same words the scan per `Character` found, on ASCII sources and on names that are
/// not ASCII.
@Suite struct SourceWordsTests {
    /// The scan as it was, per `Character`.
    static func characterWords(_ text: String) -> [String] {
        var words: [Substring] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            words += code.split(whereSeparator: {
                !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "@" || $0 == ":" || $0 == "." || $0 == "(" || $0 == ")")
            })
        }
        return words.map(String.init)
    }

    @Test func randomASCIISourcesGiveTheSameWords() {
        var rng = SeededGenerator(seed: 134)
        let pieces = [
            "class", " ", "App", "@main", "struct", ":", "{", "}", "\n", "\r\n", "//", "/", "@objc(", ")", "x1", "_y", ".", "\t", "\"",
            "SwiftUI.App", ",", "@interface", "=",
        ]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            #expect(SceneLifecycleKind.words(of: text).map(String.init) == Self.characterWords(text), "\(text.debugDescription)")
        }
    }

    @Test func namesThatAreNotASCIIStayWhole() {
        let text = "class Café: UIResponder {} // class Nope\n@main struct Über: App {}\n"
        #expect(
            SceneLifecycleKind.words(of: text).map(String.init) == ["class", "Café:", "UIResponder", "@main", "struct", "Über:", "App"])
        let declarations = SceneLifecycleKind.scan(text)
        #expect(declarations.classes == ["Café"] && declarations.swiftUIApp)
    }
}
