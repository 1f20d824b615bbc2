import SystemCalls

/// What kind of other project's folder a vendored name is (`ResourceTree.vendored`), as
/// `project.left-out` says it.
enum VendoredKind: String, Sendable {
    case pods, npm, carthage, framework, docset

    init(_ name: String) {
        switch name {
        case "Pods": self = .pods
        case "node_modules": self = .npm
        case "Carthage": self = .carthage
        default: self = name.hasSuffix(".docset") ? .docset : .framework
        }
    }

    var one: String {
        switch self {
        case .pods: "the CocoaPods folder is"
        case .npm: "the npm packages folder is"
        case .carthage: "the Carthage folder is"
        case .framework: "a prebuilt framework is"
        case .docset: "a documentation set is"
        }
    }

    var many: String {
        switch self {
        case .pods: "CocoaPods folders are"
        case .npm: "npm packages folders are"
        case .carthage: "Carthage folders are"
        case .framework: "prebuilt frameworks are"
        case .docset: "documentation sets are"
        }
    }

    var why: String {
        switch self {
        case .pods, .npm: "other projects' code and resources, installed by a package manager"
        case .carthage: "other projects' checkouts and build products"
        case .framework:
            "another project's build product, embedded in the app: only a listed SDK's privacy manifest is judged, not its images or Info.plist"
        case .docset: "generated documentation, not part of the app"
        }
    }
}
