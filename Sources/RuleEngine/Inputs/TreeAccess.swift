import ProjectModel
import SystemCalls

/// Project-model reads against the tree, recorded as inputs of the project's context.
final class TreeAccess: ProjectFileAccess {
    let tree: ResourceTree
    var inputs: Set<EvaluationInput> = []
    init(tree: ResourceTree) { self.tree = tree }

    func read(_ path: String) -> Result<[UInt8], SystemError> {
        inputs.insert(.file(path))
        switch tree.contentPath(path) {
        case .failure(let e): return .failure(e)
        case .success(let real):
            do { return .success(try FileSystem.readFile(real, limit: FileLimits.bytes(for: path))) } catch { return .failure(error) }
        }
    }

    func list(_ directory: String) -> Result<[DirectoryEntry], SystemError> {
        inputs.insert(.listing(directory))
        inputs.insert(.file(directory))
        return tree.entries(of: directory)
    }
}
