import Dispatch
import RuleKit
import Synchronization
import SystemCalls

/// Which subjects the tree holds, and the project of each.
extension Engine {
    /// One subject found in a folder's listing, with the path of its project.
    typealias FoundSubject = (kind: SubjectKind, node: ResourceTree.NodeID, project: String)

    /// Rebuilds every subject's project. `recordingChanges` compares before and after (by path:
    /// both sides built as strings) for a re-scope; a full scan or a rule reload, with an empty
    /// store, re-runs everything anyway and skips it.
    func rebuildSubjects(recordingChanges: Bool = true) {
        projectIndex = ProjectIndex(tree: tree)
        let before = recordingChanges ? subjects.snapshot(tree: tree) : [:]
        subjects.removeAll(keepingRoomFor: tree.nodeCapacity)
        var projectNodes: [String: ResourceTree.NodeID] = [:]
        let tree = self.tree
        func projectNode(_ dir: String) -> ResourceTree.NodeID? {
            if let n = projectNodes[dir] { return n }
            let n = tree.node(dir)
            projectNodes[dir] = n
            return n
        }
        for found in Self.subjects(of: tree, projects: projectIndex) {
            guard let p = projectNode(found.project) else { continue }
            subjects.set(found.kind, found.node, project: p, tree: tree, recording: false)
        }
        var dirs = projectIndex.directories
        subjects.forEachGroup { kind, _, project in if kind != .project { dirs.insert(project) } }
        for d in dirs { updateProjectSubject(d, recording: false) }
        refreshScanDiagnostics()
        guard recordingChanges else {
            subjects.changes = []
            return
        }
        let after = subjects.snapshot(tree: tree)
        for (s, old) in before where after[s] != old { subjects.changes.append((s, old, after[s])) }
        for (s, new) in after where before[s] == nil { subjects.changes.append((s, nil, new)) }
        for key in store.keys where after[key.subject] == nil { drop(key) }
    }

    /// Every subject of the tree with its project's path, folder by folder in node order. Each
    /// folder's path, project and set-ness is computed once; folders are classified on every
    /// core in chunks (it was the longest step a scan ran on one thread: 0.1 s at 100k files),
    /// and the chunks put back in order.
    static func subjects(of tree: ResourceTree, projects: ProjectIndex) -> [FoundSubject] {
        var folders: [(ResourceTree.NodeID, [ResourceTree.NodeID])] = []
        tree.forEachDirectory { folders.append(($0, $1)) }
        let chunk = 128
        let chunks = (folders.count + chunk - 1) / chunk
        let found = Mutex([[FoundSubject]](repeating: [], count: chunks))
        let all = folders
        let classify: @Sendable (Int) -> Void = { c in
            var out: [FoundSubject] = []
            for (dir, children) in all[(c * chunk)..<min(all.count, (c + 1) * chunk)] {
                subjects(in: dir, children: children, of: tree, projects: projects, into: &out)
            }
            found.withLock { $0[c] = out }
        }
        if chunks < 2 {
            for c in 0..<chunks { classify(c) }
        } else {
            DispatchQueue.concurrentPerform(iterations: chunks, execute: classify)
        }
        return found.withLock { $0.flatMap { $0 } }
    }

    /// The subjects among one folder's entries.
    private static func subjects(
        in dir: ResourceTree.NodeID, children: [ResourceTree.NodeID], of tree: ResourceTree, projects: ProjectIndex,
        into out: inout [FoundSubject]
    ) {
        let dirPath = tree.path(of: dir)
        guard !isModuleDirectory(dirPath) else { return }
        let project = projects.project(containing: dirPath)
        let parentIsSet = SubjectClassifier.assetSetType(ofDirectory: tree.name(of: dir)) != nil
        let inIconBundle = SubjectClassifier.isInsideIconBundle(dirPath)
        for child in children where tree.isLive(child) {
            let isDirectory = tree.isDirectory(node: child)
            let name = tree.name(of: child)
            guard
                let kind = inIconBundle
                    ? SubjectClassifier.iconBundleMember(name: name, isDirectory: isDirectory)
                    : SubjectClassifier.kind(name: name, isDirectory: isDirectory, parentIsAssetSet: parentIsSet)
            else { continue }
            out.append((kind, child, isDirectory ? projects.project(containing: RelativePath.join(dirPath, name)) : project))
        }
    }
}
