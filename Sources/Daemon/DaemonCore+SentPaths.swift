import SystemCalls

extension DaemonCore {
    /// A path a client sent in a request. The daemon writes a name's bytes that are not UTF-8 as
    /// `\xHH`, so a path read from `status` or a finding comes back so; but a name may also hold
    /// that text itself (a backslash, then `xFF`). The text as sent wins when it names something:
    /// a watched or waiting root, or a file on disk (a relative path: under a watched root). Only
    /// otherwise is each `\xHH` (HH 80…FF) read as its byte.
    package func sentPath(_ text: String) -> String {
        let unescaped = FileName.unescapingUndecodable(text)
        guard unescaped != text, !namesSomething(text) else { return text }
        return unescaped
    }

    package func sentPath(_ text: String?) -> String? { text.map { sentPath($0) } }

    private func namesSomething(_ text: String) -> Bool {
        func exists(_ path: String) -> Bool { (try? FileSystem.status(path)) != nil }
        guard text.hasPrefix("/") else { return roots.keys.contains { exists($0 + "/" + text) } }
        let path = FileSystem.absolutePath(text)
        return roots.isRootOrWaiting(path) || exists(path)
    }
}
