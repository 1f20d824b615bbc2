import ProjectModel
import RuleKit
import SystemCalls

/// Where a project names its app icon set.
enum AppIconOrigin {
    /// The setting that names the set, and the file and line it is in (so CI and editors show the
    /// finding where the name can be fixed).
    static func of(_ name: String, in context: EvaluationContext, project: String) -> (String, String, Int?) {
        switch context.project.sources["app-icon"] {
        case .config?:
            let file = RelativePath.join(project, ".reswatch.yaml")
            let line = (try? context.read(file).get()).flatMap { TextLines.firstLine(in: $0, containing: ["app-icon:"]) }
            return ("app-icon in .reswatch.yaml", file, line)
        case .pbxproj?:
            let key = "ASSETCATALOG_COMPILER_APPICON_NAME"
            // "App.xcconfig:3, Release" or "App.xcodeproj/project.pbxproj, target App, Release".
            let origin = context.project.origins["app-icon"].map { String($0.prefix { $0 != "," }) } ?? ""
            var file = origin
            var line: Int?
            if let colon = origin.lastIndex(of: ":"), let n = Int(origin[origin.index(after: colon)...]) {
                file = String(origin[..<colon])
                line = n
            }
            if line == nil, !file.isEmpty, let bytes = try? context.read(file).get() {
                line = TextLines.firstLine(in: bytes, containing: ["\(key) = \(name);", "\(key) = \"\(name)\";", "\(key) = "])
            }
            return ("\(key) in \(file.isEmpty ? "project.pbxproj" : RelativePath.name(file))", file.isEmpty ? project : file, line)
        case .infoPlist?:
            return ("CFBundleIconName in Info.plist", context.project.infoPlist ?? project, nil)
        default:
            return ("from the configuration", project, nil)
        }
    }
}
