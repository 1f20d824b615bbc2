import ProjectModel

extension EvaluationContext {
    /// The Info.plist a target ships, read from `path`: the file with what Xcode generates from
    /// the owning target's build settings merged over it (`GeneratedInfoPlist`): the app's when
    /// `path` is the app's Info.plist, an other target's when it names `path` as its
    /// `INFOPLIST_FILE`, else the file alone. nil when the file does not parse as a dictionary
    /// (`plist.parse-error` says why).
    public func effectiveInfoPlist(_ path: String) -> [String: PlistValue]? {
        guard case .success(let (value, _)) = plist(path), let file = value.dictionary else { return nil }
        let generated: [String: PlistValue]
        if project.infoPlist == path {
            generated = project.generatedInfoPlist
        } else if let target = project.otherTargets.first(where: { $0.infoPlistFile == path }) {
            generated = target.generatedInfoPlist
        } else {
            generated = [:]
        }
        return generated.isEmpty ? file : GeneratedInfoPlist.merged(file, generated)
    }
}
