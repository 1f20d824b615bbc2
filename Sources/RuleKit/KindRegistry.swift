import Findings
import ProjectModel
import SystemCalls

/// The built-in kinds a module may name; RuleKinds provides the list.
public struct KindRegistry: Sendable {
    public let kinds: [any RuleKind.Type]

    public init(_ kinds: [any RuleKind.Type]) { self.kinds = kinds }

    public func kind(named name: String) -> (any RuleKind.Type)? { kinds.first { $0.name == name } }
    public var names: [String] { kinds.map { $0.name } }
}
