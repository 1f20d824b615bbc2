import Foundation
import TestSupport
import Testing

@testable import ProjectModel

/// The strict Contents.json reader takes the common files byte by byte; whatever it accepts,
/// JSONSerialization (the reference, and the reader of everything else) reads the same.
@Suite struct ContentsJSONTests {
    static let xcodeStyle = """
        {
          "images" : [
            {
              "filename" : "Icon-60@2x.png",
              "idiom" : "iphone",
              "scale" : "2x",
              "size" : "60x60"
            },
            {
              "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
              "idiom" : "universal",
              "platform" : "ios",
              "size" : "1024x1024"
            }
          ],
          "info" : { "author" : "xcode", "version" : 1 },
          "properties" : { "pre-rendered" : true, "template-rendering-intent" : null, "x" : -0.25, "y" : [] }
        }
        """

    @Test func readsWhatXcodeWritesWithoutJSONSerialization() throws {
        let strict = try #require(StrictContentsJSON.parse(Array(Self.xcodeStyle.utf8)))
        #expect(Self.same(strict, try Self.reference(Array(Self.xcodeStyle.utf8))))
        let contents = try AssetContentsReader.parse(Array(Self.xcodeStyle.utf8)).get()
        #expect(contents.images.map(\.filename) == ["Icon-60@2x.png", nil])
        #expect(contents.images[1].appearances == ["luminosity:dark"] && contents.images[1].platform == "ios")
        #expect(contents.images.map(\.line) == [3, 9])
    }

    /// The daemon keeps parsed files: their entries are kept in room for what they hold, not in
    /// the doubled room appending grew them into (an icon set's ten entries in room for sixteen).
    @Test(arguments: [1, 3, 10, 17]) func entriesAreKeptInRoomForWhatTheyHold(_ count: Int) throws {
        let entry = #"{"idiom":"iphone","size":"60x60","scale":"2x","filename":"i.png"}"#
        let json = #"{"images":["# + Array(repeating: entry, count: count).joined(separator: ",") + "]}"
        let images = try AssetContentsReader.parse(Array(json.utf8)).get().images
        #expect(images.count == count)
        #expect(images.capacity == count, "\(images.capacity) for \(count)")
    }

    /// Entry lines skip brackets, braces and escaped quotes inside strings, and a key named like
    /// the array inside a string before it; CRLF line ends count once.
    @Test func entryLinesKnowAboutStrings() throws {
        let json =
            "{\r\n  \"info\" : { \"author\" : \"x \\\"images\\\" [{\" },\r\n  \"images\" : [\r\n"
            + "    { \"filename\" : \"a{b}[c].png\", \"idiom\" : \"universal\" },\r\n\r\n"
            + "    { \"filename\" : \"q\\\"}.png\", \"idiom\" : \"universal\" }\r\n  ]\r\n}\r\n"
        let contents = try AssetContentsReader.parse(Array(json.utf8)).get()
        #expect(contents.images.map(\.filename) == ["a{b}[c].png", "q\"}.png"])
        #expect(contents.images.map(\.line) == [4, 6])
    }

    /// In the strict subset the reader says where each entry starts as it parses: CRLF and blank
    /// lines, two entries on one line, a non-object entry (its own line, so the shape error points
    /// at it), and the key's name as a string value earlier, followed by another array of objects
    /// (a scan for the first `"images"` would take that array's lines).
    @Test func entryLinesComeFromTheStrictReader() throws {
        let json =
            "{\r\n  \"info\" : { \"author\" : \"images\", \"tags\" : [ { \"a\" : \"b\" } ] },\r\n\r\n"
            + "  \"images\" : [\r\n    { \"filename\" : \"a.png\" }, { \"filename\" : \"b.png\" },\r\n\r\n"
            + "    {\n \"filename\" : \"c.png\" }\r\n  ]\r\n}\r\n"
        let parsed = try #require(StrictContentsJSON.parse(Array(json.utf8), entriesKey: "images"))
        #expect(parsed.entryLines == [5, 5, 7])
        let contents = try AssetContentsReader.parse(Array(json.utf8)).get()
        #expect(contents.images.map(\.filename) == ["a.png", "b.png", "c.png"])
        #expect(contents.images.map(\.line) == [5, 5, 7])
        // Only the top-level key's array: the same name deeper records nothing.
        let nested = #"{"info":{"images":[{"a":"b"}]}}"#
        #expect(try #require(StrictContentsJSON.parse(Array(nested.utf8), entriesKey: "images")).entryLines.isEmpty)
        let notObject = "{\n\"images\" : [\n{ \"filename\" : \"a.png\" },\n\"b.png\"\n]\n}"
        guard case .failure(let e) = AssetContentsReader.parse(Array(notObject.utf8)) else {
            Issue.record("a string entry")
            return
        }
        #expect(e.description == "images[1] is not an object (line 4)")
    }

    /// The entries reader takes the usual shapes, unknown members and all, and gives what the
    /// value tree and the shape check give.
    @Test(arguments: [
        ContentsJSONTests.xcodeStyle,
        #"{"images":[]}"#,
        #"{"info":{"author":"xcode","version":1}}"#,
        #"{"images":[{}],"info":{"x":[[[{"y":null}]]]}}"#,
        #"{"images":[{"filename":"a.png","minimum-system-version":"14.0","extent":"full-screen","orientation":"portrait","#
            + #""subtype":"retina4","role":"x","platform":"ios","unknown":{"k":[1,2.5,-3,true]}}]}"#,
        #"{"images":[{"appearances":[],"idiom":"universal"},"#
            + #"{"appearances":[{"value":"dark","appearance":"luminosity","extra":0}]}]}"#,
        "{\n  \"images\" : [\n\n    { \"size\" : \"20x20\" }, { \"size\" : \"29x29\" }\r\n  ]\n}\n",
    ])
    func entriesAreReadStraightAsTheShapeCheckReadsThem(text: String) throws {
        let bytes = Array(text.utf8)
        let direct = try #require(StrictContentsJSON.entries(bytes, key: "images"))
        let tree = try Self.viaTree(bytes).get()
        #expect(AssetContents(images: direct.entries, hasImagesKey: direct.hasKey) == tree)
        #expect(try AssetContentsReader.parse(bytes).get() == tree)
    }

    static let noPair = "has an entry without appearance/value"

    /// Each of these is valid JSON in the subset, of a shape the entries reader leaves to the value
    /// tree: the shape check's verdict and its line are the same as before.
    @Test(arguments: [
        (#"{"images":{"a":"b"}}"#, "\"images\" is not an array (line 1)"),
        ("{\"images\":[\n{\"size\":\"1x1\"},\n\"b.png\"]}", "images[1] is not an object (line 3)"),
        (#"{"images":[{"size":1}]}"#, "images[0].size is not a string (line 1)"),
        (#"{"images":[{"scale":null}]}"#, "images[0].scale is not a string (line 1)"),
        (#"{"images":[{"appearances":{"a":"b"}}]}"#, "images[0].appearances is not an array (line 1)"),
        (#"{"images":[{"appearances":[{"appearance":"luminosity"}]}]}"#, "images[0].appearances \(ContentsJSONTests.noPair) (line 1)"),
        (#"{"images":[{"appearances":[{"appearance":"dark","value":1}]}]}"#, "images[0].appearances \(ContentsJSONTests.noPair) (line 1)"),
        (#"{"images":[{"appearances":["dark"]}]}"#, "images[0].appearances \(ContentsJSONTests.noPair) (line 1)"),
    ])
    func otherShapesAreLeftToTheShapeCheck(text: String, message: String) throws {
        let bytes = Array(text.utf8)
        #expect(StrictContentsJSON.entries(bytes, key: "images") == nil)
        guard case .failure(let e) = AssetContentsReader.parse(bytes) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(e.description == message)
    }

    /// Outside the subset (a repeated key in an entry, in an appearance, at the top; an escape;
    /// too deep) the entries reader answers nil, as the strict reader does.
    @Test(arguments: [
        #"{"images":[{"size":"1x1","size":"2x2"}]}"#,
        #"{"images":[{"appearances":[{"value":"a","value":"b","appearance":"c"}]}]}"#,
        #"{"images":[],"images":[]}"#,
        #"{"images":[{"filename":"a\u0062.png"}]}"#,
        "{\"images\":[{\"x\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}]}",
    ])
    func outsideTheSubsetTheEntriesReaderAnswersNothing(text: String) {
        #expect(StrictContentsJSON.entries(Array(text.utf8), key: "images") == nil)
        #expect(StrictContentsJSON.parse(Array(text.utf8)) == nil)
    }

    /// Each of these is left to JSONSerialization: valid JSON outside the subset, or not JSON.
    @Test(arguments: [
        #"{"images":[{"filename":"a\u00e9.png"}]}"#,  // an escape
        "{\"images\":[{\"filename\":\"caf\u{e9}.png\"}]}",  // UTF-8 beyond ASCII
        "\u{FEFF}{\"images\":[]}",  // a byte-order mark
        #"{"images":[],"images":[{"filename":"a.png"}]}"#,  // a repeated key
        #"{"info":{"version":1e2}}"#,  // an exponent
        #"{"info":{"version":01}}"#,  // a leading zero
        #"{"info":{"version":1234567890123456}}"#,  // more digits than the subset takes
        #"{"images":[{"filename":"a.png"},]}"#,  // a trailing comma
        #"{"images":[]} x"#,  // text after the object
        #"["images"]"#,  // not an object at the top
        #"{"images":[{"filename":"a.png"}]"#,  // cut short
        #"{"a":tru}"#,  // a broken literal
        #"{"a":-}"#,  // a sign without digits
        #"{"a":1.}"#,  // a point without digits
        String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40),  // deeper than 32
    ])
    func leavesTheRestToJSONSerialization(_ text: String) {
        #expect(StrictContentsJSON.parse(Array(text.utf8)) == nil)
    }

    @Test func theFallbackStillReadsValidJSONOutsideTheSubset() throws {
        let escaped = #"{"images":[{"filename":"caf\u00e9.png","idiom":"iphone","size":"60x60","scale":"2x"}]}"#
        #expect(try AssetContentsReader.parse(Array(escaped.utf8)).get().images.first?.filename == "café.png")
        let repeated = #"{"images":[{"idiom":"iphone","idiom":"ipad"}]}"#
        #expect(StrictContentsJSON.parse(Array(repeated.utf8)) == nil)
        #expect(try AssetContentsReader.parse(Array(repeated.utf8)).get().images.count == 1)
    }

    /// A hostile object of 200,000 keys (1.6 MB, within Contents.json's 4 MB limit): the strict
    /// reader checks keys for repeats by comparison, so it leaves objects of more than
    /// `maximumMembers` to JSONSerialization (with them it compared every key with every other:
    /// 2·10¹⁰ comparisons, minutes of CPU) and the file is read in linear time.
    @Test func aHugeObjectIsLeftToJSONSerialization() throws {
        var text = #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x""#
        for i in 0..<200_000 { text += #","k\#(i)":0"# }
        text += "}]}"
        #expect(StrictContentsJSON.parse(Array(text.utf8)) == nil)
        let contents = try AssetContentsReader.parse(Array(text.utf8)).get()
        #expect(contents.images.count == 1 && contents.images[0].size == "60x60")
        let wide = "{" + (0..<StrictContentsJSON.maximumMembers).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"
        #expect(StrictContentsJSON.parse(Array(wide.utf8)) != nil, "an object of exactly the maximum is still read")
    }

    @Test func wrongShapesAreNamedAsBefore() {
        guard case .failure(let e) = AssetContentsReader.parse(Array(#"{"images":[{"idiom":"iphone","size":3}]}"#.utf8)) else {
            Issue.record("a number as size is not a size")
            return
        }
        #expect(e.description == "images[0].size is not a string (line 1)")
        guard case .failure(let top) = AssetContentsReader.parse(Array(#"{"images":{"a":"b"}}"#.utf8)) else {
            Issue.record("images as an object")
            return
        }
        #expect(top.description.contains("\"images\" is not an array"))
    }

    /// Every Contents.json of the corpus, and 40 byte-level mutations of each (a byte dropped,
    /// changed or doubled): where the strict reader accepts, JSONSerialization reads the same.
    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone"))
    func agreesWithJSONSerializationOnTheCorpusAndItsMutations() throws {
        let files = try Self.corpusContentsFiles()
        #expect(files.count > 100)
        var generator = SeededGenerator(seed: 30)
        var strictAccepted = 0
        var mutantsAccepted = 0
        var directAccepted = 0
        for path in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            if let strict = StrictContentsJSON.parse(bytes, entriesKey: "images") {
                strictAccepted += 1
                #expect(Self.same(strict.value, try Self.reference(bytes)), "\(path)")
                // The lines the reader records are the ones the scan over the bytes finds.
                #expect(strict.entryLines == AssetContentsReader.lines(ofEntriesIn: bytes), "\(path)")
            }
            if let direct = StrictContentsJSON.entries(bytes, key: "images") {
                directAccepted += 1
                #expect(AssetContents(images: direct.entries, hasImagesKey: direct.hasKey) == (try? Self.viaTree(bytes).get()), "\(path)")
            }
            for _ in 0..<40 where !bytes.isEmpty {
                var mutant = bytes
                let i = Int.random(in: 0..<mutant.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mutant.remove(at: i)
                case 1: mutant[i] = Self.alphabet.randomElement(using: &generator)!
                default: mutant.insert(mutant[i], at: i)
                }
                if let direct = StrictContentsJSON.entries(mutant, key: "images") {
                    #expect(
                        AssetContents(images: direct.entries, hasImagesKey: direct.hasKey) == (try? Self.viaTree(mutant).get()),
                        "\(path) mutated at \(i)")
                }
                guard let strict = StrictContentsJSON.parse(mutant) else { continue }
                mutantsAccepted += 1
                let reference = try? Self.reference(mutant)
                #expect(reference.map { Self.same(strict, $0) } == true, "\(path) mutated at \(i)")
            }
        }
        // The subset covers the corpus's files, and the mutations reach both sides.
        #expect(strictAccepted * 10 >= files.count * 9)
        #expect(directAccepted * 10 >= files.count * 9, "the entries reader takes the corpus's files too")
        #expect(mutantsAccepted > 0)
    }

    static let alphabet = Array("{}[]:,\"\\ \n0123456789-.eEtrufalsn\u{7F}".utf8) + [0x00, 0xC3]

    /// What `AssetContentsReader.parse` gave before the entries reader: the value tree (strict or
    /// JSONSerialization's) and the shape check.
    static func viaTree(_ bytes: [UInt8]) -> Result<AssetContents, ContentsError> {
        if let strict = StrictContentsJSON.parse(bytes, entriesKey: "images") {
            return AssetContentsReader.shape(strict.value, bytes: bytes, key: "images", entryLines: strict.entryLines)
        }
        guard let top = try? reference(bytes) else { return .failure(.invalidJSON("", line: nil)) }
        return AssetContentsReader.shape(top, bytes: bytes, key: "images")
    }

    static func reference(_ bytes: [UInt8]) throws -> ContentsValue {
        ContentsValue(foundation: try JSONSerialization.jsonObject(with: Data(bytes), options: []))
    }

    /// Equal as JSON values the shape check reads (object keys in any order).
    static func same(_ a: ContentsValue, _ b: ContentsValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.other, .other): return true
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { m in y.first { $0.key == m.key }.map { same(m.value, $0.value) } ?? false }
        default: return false
        }
    }

    static func corpusContentsFiles() throws -> [String] {
        let corpus = Repo.corpus
        guard let walker = FileManager.default.enumerator(atPath: corpus) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix("/Contents.json") }.sorted().map { corpus + "/" + $0 }
    }
}
