import SystemCalls

/// Finding places in text: the searches the anchor makes, on an indexed file.
extension TextIndex {
    /// The line of a pbxproj that declares a file, folder or target (`ID /* NAME */ = {`), else the
    /// first that names it: its comment or a setting whose value it is (`path = NAME;`).
    package func pbxprojLine(naming name: String) -> Int? {
        guard !name.isEmpty else { return nil }
        return firstPosition(containing: ["/* \(name) */ = {"])?.line
            ?? firstPosition(containing: ["/* \(name) */", "= \(name);", "= \"\(name)\";"])?.line
    }

    /// The line that sets the first build setting (`INFOPLIST_FILE`) the message names; where the
    /// message also names a path, the line that sets it to that file's name is preferred.
    package func settingLine(mentionedIn message: String) -> Int? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "/" || $0 == "." || $0 == "-") }
        let names = words.filter { $0.contains("/") }.map { String($0.split(separator: "/").last ?? "") }
        for word in words where word.count >= 6 && word.contains("_") && word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) {
            for name in names where !name.isEmpty {
                if let at = firstPosition(containing: ["\(word) = \(name);", "\(word) = \"\(name)\";"]) { return at.line }
            }
            if let at = firstPosition(containing: ["\(word) = "]) { return at.line }
        }
        return nil
    }

    /// In a YAML file: the first key the message names as a key (`info-plist:`), where the file
    /// has it at the start of a line.
    package func yamlKeyPosition(mentionedIn message: String) -> Position? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }.map(String.init)
        for word in words where word.count >= 2 && message.contains(word + ":") {
            for line in 1...lineCount {
                let text = String(
                    decoding: bytes[lineStarts[line - 1]..<(line < lineCount ? lineStarts[line] : bytes.count)], as: UTF8.self)
                let indent = text.prefix { $0 == " " || $0 == "\t" || $0 == "-" }
                if text.dropFirst(indent.count).hasPrefix(word + ":") { return (line, indent.utf16.count + 1) }
            }
        }
        return nil
    }

    /// An XML plist (not binary, not OpenStep).
    var isXMLPlist: Bool {
        let head = bytes.prefix(64).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return head.first == UInt8(ascii: "<")
    }

    /// The position of the key a finding is about (`key`, else the first key the message names)
    /// and, when the message quotes a value (`"Icon.png"`), of that value at or after the key; for
    /// a key the file lacks (`key`, or a message that says "no KEY"), the top-level `<dict>` and a
    /// hint that says where to add it. Nil for a plist that is not XML.
    package func plistPosition(mentionedIn message: String, key: String?) -> (line: Int, column: Int, hint: String?)? {
        guard isXMLPlist else { return nil }
        if let at = keyPosition(mentionedIn: message, key: key) { return (at.line, at.column, nil) }
        guard let dict = firstPosition(containing: ["<dict>", "<dict/>"]) else { return nil }
        let missing = key ?? TextLines.missingKey(in: message)
        return (dict.line, dict.column, missing.map { "add <key>\($0)</key> to the top-level <dict> at line \(dict.line)" })
    }

    private func keyPosition(mentionedIn message: String, key: String?) -> Position? {
        let words: [Substring] =
            key.map { [$0[...]] }
            ?? message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "~" || $0 == "-") }.filter {
                $0.first?.isUppercase == true && $0.count >= 6
            }
        for word in words {
            guard let keyAt = plistKey(String(word)) else { continue }
            for value in TextLines.quoted(message) {
                if let valueAt = firstPosition(containing: ["<string>\(value)</string>"], from: keyAt.line) { return valueAt }
            }
            return keyAt
        }
        return nil
    }
}

/// Line lookups in the text of the files findings are anchored to, on plain bytes (for callers
/// that place one finding; the anchor itself works on a `TextIndex`).
public enum TextLines {
    /// The 1-based line of the first line that contains any of `needles`.
    public static func firstLine(in bytes: [UInt8], containing needles: [String], from start: Int = 1) -> Int? {
        TextIndex(bytes).firstPosition(containing: needles, from: start)?.line
    }

    /// For an XML plist: the line of the key the message names (and of the value it quotes).
    /// Binary plists have no lines: nil.
    public static func plistLine(in bytes: [UInt8], mentionedIn message: String) -> Int? {
        let index = TextIndex(bytes)
        guard index.isXMLPlist else { return nil }
        return index.plistPosition(mentionedIn: message, key: nil).flatMap { $0.hint == nil ? $0.line : nil }
    }

    /// A name as it is written inside a JSON string.
    public static func jsonEscaped(_ name: String) -> String {
        var out = ""
        for c in name.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A target named in a message ("target Widget", "target 'Widget'").
    package static func quotedTarget(in message: String) -> String? {
        guard let range = message.range(of: "target ") else { return nil }
        let rest = message[range.upperBound...].drop { $0 == "'" || $0 == "\"" }
        let name = rest.prefix { !($0 == "," || $0 == ";" || $0 == ":" || $0 == ")" || $0 == "'" || $0 == "\"" || $0 == " ") }
        return name.isEmpty ? nil : String(name)
    }

    /// A key a message says is missing ("has no UIRequiredDeviceCapabilities").
    package static func missingKey(in message: String) -> String? {
        let words = message.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "~") }
        for (i, word) in words.enumerated().dropFirst() where words[i - 1] == "no" {
            let uppers = word.prefix { $0.isUppercase }.count
            if uppers >= 2, word.count >= 8, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "~" }) { return String(word) }
        }
        return nil
    }

    /// The "quoted" parts of a message.
    package static func quoted(_ message: String) -> [String] {
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }.filter { !$0.isEmpty && !$0.contains("<") }
    }
}
