import Yams

/// A rule module's YAML after composition: scalars, lists and mappings, each with where it
/// starts. It is what the loader and the kinds read (through `ModuleParameters`): made from
/// Yams' nodes for a module read from a directory, or decoded from the form compiled into the
/// binary for a built-in one (`ModuleNode+Encoding.swift`), so a start does not parse YAML the
/// binary already holds (issue 63).
public indirect enum ModuleNode: Sendable, Equatable {
    case scalar(String, Mark)
    case sequence([ModuleNode], Mark)
    case mapping([Pair], Mark)
    /// A node that is none of those (Yams' unresolved alias): it reads as no string, list or mapping.
    case other(Mark)

    /// 1-based line and column where a node starts; 0 when unknown.
    public struct Mark: Sendable, Equatable {
        public let line: Int
        public let column: Int
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
        public static let unknown = Mark(line: 0, column: 0)
    }

    public struct Pair: Sendable, Equatable {
        public let key: ModuleNode
        public let value: ModuleNode
        public init(key: ModuleNode, value: ModuleNode) {
            self.key = key
            self.value = value
        }
    }

    public var mark: Mark {
        switch self {
        case .scalar(_, let m), .sequence(_, let m), .mapping(_, let m), .other(let m): return m
        }
    }

    /// The line, nil when unknown (a node made in code).
    public var line: Int? { mark.line > 0 ? mark.line : nil }
    public var column: Int? { mark.column > 0 ? mark.column : nil }

    /// A scalar's text.
    public var string: String? { if case .scalar(let s, _) = self { s } else { nil } }
    public var sequence: [ModuleNode]? { if case .sequence(let items, _) = self { items } else { nil } }
    public var mapping: [Pair]? { if case .mapping(let pairs, _) = self { pairs } else { nil } }

    /// The value of `key` in a mapping; of repeated keys the last, as Yams reads them.
    public subscript(key: String) -> ModuleNode? {
        mapping?.last { $0.key.string == key }?.value
    }

    /// A composed Yams document. Aliases arrive expanded by Yams' composer (the loader bounds how
    /// far for modules that are input); a scalar's text is taken as written, its tag unresolved.
    public init(_ node: Node) {
        let mark = node.mark.map { Mark(line: $0.line, column: $0.column) } ?? .unknown
        switch node {
        case .scalar(let s): self = .scalar(s.string, mark)
        case .sequence(let items): self = .sequence(items.map(ModuleNode.init), mark)
        case .mapping(let pairs): self = .mapping(pairs.map { Pair(key: ModuleNode($0.key), value: ModuleNode($0.value)) }, mark)
        case .alias: self = .other(mark)
        }
    }
}
