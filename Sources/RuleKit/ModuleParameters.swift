import Findings
import Synchronization

/// Typed access to a module entry's parameters, with file:line in every error.
public struct ModuleParameters: Sendable {
    public let node: ModuleNode
    public let file: String
    /// The mapping's values by key, built once (the first of repeated keys).
    private let fields: [String: ModuleNode]
    /// Where the names a kind reads are recorded (a test checks they are the declared ones).
    private let reads: ParameterReads?

    public init(node: ModuleNode, file: String, recordingReadsIn reads: ParameterReads? = nil) {
        self.node = node
        self.file = file
        self.reads = reads
        var fields: [String: ModuleNode] = [:]
        for pair in node.mapping ?? [] {
            if let k = pair.key.string, fields[k] == nil { fields[k] = pair.value }
        }
        self.fields = fields
    }

    public static func empty(file: String = "<built-in>") -> ModuleParameters {
        ModuleParameters(node: .mapping([], .unknown), file: file)
    }

    public var line: Int? { node.line }

    public func error(_ message: String, at node: ModuleNode? = nil) -> ModuleError {
        ModuleError(file: file, line: (node ?? self.node).line, message: message)
    }

    public func value(_ key: String) -> ModuleNode? {
        reads?.record(key)
        return fields[key]
    }

    public func child(_ key: String) -> ModuleParameters? {
        value(key).map { ModuleParameters(node: $0, file: file) }
    }

    public var keys: [String] { node.mapping?.compactMap(\.key.string) ?? [] }

    /// Fails on keys the kind does not know (typos must not be silently ignored).
    public func expectOnly(_ known: Set<String>) throws(ModuleError) {
        guard let map = node.mapping else { throw error("expected a mapping") }
        for key in map.map(\.key) {
            guard let k = key.string, known.contains(k) else {
                throw error("unknown parameter '\(key.string ?? "?")' (known: \(known.sorted().joined(separator: ", ")))", at: key)
            }
        }
    }

    public func string(_ key: String) throws(ModuleError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { throw error("\(key): expected a string", at: v) }
        return s
    }

    public func requiredString(_ key: String) throws(ModuleError) -> String {
        guard let s = try string(key) else { throw error("missing required parameter '\(key)'") }
        return s
    }

    public func int(_ key: String) throws(ModuleError) -> Int? {
        guard let v = value(key) else { return nil }
        guard let s = v.string, let i = Int(s) else { throw error("\(key): expected an integer", at: v) }
        return i
    }

    /// An integer that must lie in `range` (module data is outside input: a project may ship it).
    public func int(_ key: String, in range: ClosedRange<Int>) throws(ModuleError) -> Int? {
        guard let i = try int(key) else { return nil }
        guard range.contains(i) else { throw error("\(key): \(i) is outside \(range.lowerBound)…\(range.upperBound)", at: value(key)!) }
        return i
    }

    public func bool(_ key: String) throws(ModuleError) -> Bool? {
        guard let v = value(key) else { return nil }
        switch v.string?.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw error("\(key): expected true or false", at: v)
        }
    }

    public func strings(_ key: String) throws(ModuleError) -> [String]? {
        guard let v = value(key) else { return nil }
        guard let seq = v.sequence else { throw error("\(key): expected a list", at: v) }
        var out: [String] = []
        for item in seq {
            guard let s = item.string else { throw error("\(key): expected a list of strings", at: item) }
            out.append(s)
        }
        return out
    }

    /// A mapping of strings to strings (`name: value` lines).
    public func stringMap(_ key: String) throws(ModuleError) -> [String: String]? {
        guard let v = value(key) else { return nil }
        guard let mapping = v.mapping else { throw error("\(key): expected a mapping of names to strings", at: v) }
        var out: [String: String] = [:]
        for pair in mapping {
            guard let n = pair.key.string, let s = pair.value.string else {
                throw error("\(key): expected a mapping of names to strings", at: pair.value)
            }
            out[n] = s
        }
        return out
    }

    /// A list of mappings, each as parameters of its own.
    public func list(_ key: String) throws(ModuleError) -> [ModuleParameters]? {
        guard let v = value(key) else { return nil }
        guard let seq = v.sequence else { throw error("\(key): expected a list", at: v) }
        var out: [ModuleParameters] = []
        for item in seq {
            guard item.mapping != nil else { throw error("\(key): expected a list of mappings", at: item) }
            out.append(ModuleParameters(node: item, file: file))
        }
        return out
    }
}

/// The parameter names a kind read while it was made from a module entry.
public final class ParameterReads: Sendable {
    private let names = Mutex<Set<String>>([])
    public init() {}
    func record(_ name: String) { names.withLock { _ = $0.insert(name) } }
    public var all: Set<String> { names.withLock { $0 } }
}
