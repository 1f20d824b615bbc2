import SystemCalls
import Yams

/// XcodeGen's `include:` (issue 58): the files a project.yml includes are read and merged under
/// it as XcodeGen merges them (mappings key by key, lists appended, the including file's values
/// winning). Paths in an included file are relative to its own folder unless it says
/// `relativePaths: false`, so its targets' `sources`, `info`, `entitlements` and `configFiles`
/// paths are rebased onto the including file's folder. What cannot be read is said.
extension XcodeGenReader {
    static let maximumIncludeDepth = 4
    static let maximumIncludes = 32

    struct Includes {
        var problems: [XcconfigProblem] = []
        var count = 0
    }

    /// `map` with every file it includes merged under it.
    static func including(
        _ map: Node.Mapping, path: String, files: some ProjectFileAccess, depth: Int = 0, into state: inout Includes
    ) -> Node.Mapping {
        guard let include = map["include"] else { return map }
        let own = Node.Mapping(map.filter { $0.key.string != "include" })
        guard depth < maximumIncludeDepth else {
            state.problems.append(
                XcconfigProblem(
                    file: path, line: include.line ?? 0, message: "include: nested deeper than \(maximumIncludeDepth): not read"))
            return own
        }
        var base = Node.Mapping([])
        for entry in include.sequence.map(Array.init) ?? [include] {
            let line = entry.line ?? include.line ?? 0
            guard YAMLLimits.bool(entry["enable"]) ?? true else { continue }
            guard let name = entry.string ?? entry["path"]?.string, !name.hasPrefix("/"), !name.contains("$"),
                let file = RelativePath.normalize(RelativePath.join(RelativePath.parent(path), name))
            else {
                state.problems.append(
                    XcconfigProblem(file: path, line: line, message: "include: an entry that is not a path inside the tree: not read"))
                continue
            }
            state.count += 1
            guard state.count <= maximumIncludes else {
                state.problems.append(
                    XcconfigProblem(file: path, line: line, message: "include: more than \(maximumIncludes) files: \(name) not read"))
                continue
            }
            let included: Node.Mapping
            switch files.read(file).map({ YAMLLimits.compose(String(decoding: $0, as: UTF8.self)) }) {
            case .success(.success(let node?)) where node.mapping != nil: included = node.mapping!
            case .failure(let e):
                state.problems.append(
                    XcconfigProblem(
                        file: path, line: line, message: "include: \(name) cannot be read (\(e.reason)); settings it adds are unknown"))
                continue
            case .success(.failure(let problem)):
                state.problems.append(
                    XcconfigProblem(
                        file: file, line: problem.line ?? 0, message: "included by \(RelativePath.name(path)): \(problem.message); not read"
                    ))
                continue
            default:
                state.problems.append(
                    XcconfigProblem(file: file, line: 0, message: "included by \(RelativePath.name(path)): not a mapping; not read"))
                continue
            }
            var expanded = including(included, path: file, files: files, depth: depth + 1, into: &state)
            if YAMLLimits.bool(entry["relativePaths"]) ?? true {
                expanded = rebase(expanded, from: RelativePath.parent(file), to: RelativePath.parent(path))
            }
            base = XcodeGenSpec.merge(base, expanded)
        }
        return XcodeGenSpec.merge(base, own)
    }

    /// The path from folder `to` to `folder/path` (both root-relative), with `..` where needed.
    static func rebased(_ path: String, from folder: String, to base: String) -> String {
        guard !path.hasPrefix("/"), let target = RelativePath.normalize(RelativePath.join(folder, path)) else { return path }
        var up = base
        var prefix = ""
        while !RelativePath.isWithin(target, up) {
            prefix += "../"
            if up.isEmpty { return path }
            up = RelativePath.parent(up)
        }
        let rest = up.isEmpty ? target : String(target.dropFirst(up.count)).drop { $0 == "/" }.description
        return prefix + rest
    }

    /// An included spec's paths, rebased: project `configFiles`, and in each target and target
    /// template its `sources`, `info.path`, `entitlements.path` and `configFiles`.
    static func rebase(_ spec: Node.Mapping, from folder: String, to base: String) -> Node.Mapping {
        func scalar(_ node: Node) -> Node {
            guard case .scalar(let s) = node else { return node }
            return .scalar(Node.Scalar(rebased(s.string, from: folder, to: base), s.tag, s.style, s.mark))
        }
        func values(_ node: Node?) -> Node? {
            guard let m = node?.mapping else { return node }
            return .mapping(Node.Mapping(m.map { ($0.key, scalar($0.value)) }, m.tag, m.style, m.mark))
        }
        func pathKey(_ node: Node?) -> Node? {
            guard let node, let m = node.mapping else { return node.map(scalar) }
            return .mapping(Node.Mapping(m.map { ($0.key, $0.key.string == "path" ? scalar($0.value) : $0.value) }, m.tag, m.style, m.mark))
        }
        func target(_ node: Node) -> Node {
            guard let t = node.mapping else { return node }
            return .mapping(
                Node.Mapping(
                    t.map { key, value -> (Node, Node) in
                        switch key.string {
                        case "sources":
                            if let q = value.sequence {
                                return (key, .sequence(Node.Sequence(q.map { pathKey($0)! }, q.tag, q.style, q.mark)))
                            }
                            return (key, pathKey(value)!)
                        case "info", "entitlements": return (key, pathKey(value)!)
                        case "configFiles": return (key, values(value)!)
                        default: return (key, value)
                        }
                    }, t.tag, t.style, t.mark))
        }
        func targets(_ node: Node) -> Node {
            guard let m = node.mapping else { return node }
            return .mapping(Node.Mapping(m.map { ($0.key, target($0.value)) }, m.tag, m.style, m.mark))
        }
        return Node.Mapping(
            spec.map { key, value -> (Node, Node) in
                switch key.string {
                case "targets", "targetTemplates": return (key, targets(value))
                case "configFiles": return (key, values(value)!)
                default: return (key, value)
                }
            }, spec.tag, spec.style, spec.mark)
    }
}
