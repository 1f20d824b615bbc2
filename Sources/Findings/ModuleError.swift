import SystemCalls

/// A problem in a rule module, with its file and line.
public struct ModuleError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }

    enum CodingKeys: String, CodingKey { case file, line, message }

    /// On the wire and in JSON reports a byte of the file's name that is not UTF-8 is `\xHH`, as
    /// in findings (docs/protocol.md).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileName.escapingUndecodable(file), forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encode(FileName.escapingUndecodable(message), forKey: .message)
    }
}
