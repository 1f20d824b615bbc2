import Findings
import RuleKit
import SystemCalls

/// One rule module as read from its source: a file on disk, or a module built into the binary.
public struct ModuleFile: Sendable, Hashable {
    /// The file's path, or `<built-in>/rules/NAME` for a module compiled into the binary.
    public let path: String
    public let text: Result<String, ModuleError>

    public init(path: String, text: Result<String, ModuleError>) {
        self.path = path
        self.text = text
    }
}

/// Where rule modules come from, in load order: the base (the modules built into the binary, or
/// the directory `RESWATCH_SHIPPED_RULES` names), then `/etc/reswatch/rules.d`, then
/// `$XDG_CONFIG_HOME/reswatch/rules.d`, then `--rules` directories. A project's own
/// `.reswatch/rules` layers on top per project (the engine reads those from the watched tree).
/// Every path that loads rules (check, daemon, rules list/docs/check) goes through this one type.
public struct RuleSources: Sendable {
    /// The base modules (built in), unless `baseDirectory` replaces them.
    public var builtIn: [ModuleFile]
    /// A directory that replaces the built-in modules (`RESWATCH_SHIPPED_RULES`, for developers).
    public var baseDirectory: String?
    /// Layered directories that may be absent (system and user config).
    public var optionalDirectories: [String]
    /// Layered directories that must exist (`--rules`, the daemon config's `rules:`).
    public var requiredDirectories: [String]
    /// Run exec rules from module files that neither the user nor root owns (off by default).
    public var allowUntrustedExec = false

    public init(builtIn: [ModuleFile], baseDirectory: String? = nil, optionalDirectories: [String] = [], requiredDirectories: [String] = [])
    {
        self.builtIn = builtIn
        self.baseDirectory = baseDirectory
        self.optionalDirectories = optionalDirectories
        self.requiredDirectories = requiredDirectories
    }

    /// The standard layering for this environment.
    public static func standard(builtIn: [ModuleFile], environment: [String: String], extra: [String] = []) -> RuleSources {
        var optional = ["/etc/reswatch/rules.d"]
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            optional.append(xdg + "/reswatch/rules.d")
        } else if let home = environment["HOME"], !home.isEmpty {
            optional.append(home + "/.config/reswatch/rules.d")
        }
        let override = environment["RESWATCH_SHIPPED_RULES"].flatMap { $0.isEmpty ? nil : FileSystem.absolutePath($0) }
        return RuleSources(builtIn: builtIn, baseDirectory: override, optionalDirectories: optional, requiredDirectories: extra)
    }

    /// Directories a daemon watches for module edits, in load order.
    public var directories: [String] { (baseDirectory.map { [$0] } ?? []) + optionalDirectories + requiredDirectories }

    /// Every module in load order; a required directory that cannot be listed is an error entry.
    public func files() -> [ModuleFile] {
        var out: [ModuleFile] = []
        if let baseDirectory {
            out += Self.files(in: baseDirectory, required: true, role: "RESWATCH_SHIPPED_RULES")
        } else {
            out += builtIn
        }
        for dir in optionalDirectories { out += Self.files(in: dir, required: false, role: nil) }
        for dir in requiredDirectories { out += Self.files(in: dir, required: true, role: "rule directory") }
        return out
    }

    /// Loads every module. Exec rules of a module file that neither this user nor root owns are
    /// dropped (with an error) unless `allowUntrustedExec`.
    /// `builtIn`: the built-in modules already parsed with `registry` (see `RuleModuleLoader.load`).
    public func load(registry: KindRegistry, builtIn: (() -> [String: RuleSet])? = nil) -> RuleSet {
        RuleModuleLoader.load(files: files(), registry: registry, execRefusal: execRefusal, builtIn: builtIn)
    }

    /// Why a module file's `exec` rules must not run: it is owned by neither this user nor root
    /// (unless `allowUntrustedExec`).
    public var execRefusal: @Sendable (String) -> String? {
        let allowed = allowUntrustedExec
        return { path in !allowed && Self.isUntrusted(path) ? "a module file owned by another user" : nil }
    }

    /// A file on disk owned by neither the invoking user nor root.
    public static func isUntrusted(_ path: String) -> Bool {
        guard path.hasPrefix("/"), let status = try? FileSystem.status(path) else { return false }
        return status.owner != 0 && status.owner != FileSystem.currentUser
    }

    /// The `*.yaml` / `*.yml` files of a directory, in name order.
    static func files(in dir: String, required: Bool, role: String?) -> [ModuleFile] {
        let entries: [DirectoryEntry]
        do { entries = try FileSystem.listDirectory(dir) } catch {
            // An optional directory is skipped when it is absent, or when its existence cannot
            // even be seen (another user's $HOME); one that exists but cannot be read is an error.
            if !required && (error.isNotFound || (try? FileSystem.status(dir)) == nil) { return [] }
            let what = role.map { "\($0) \(dir)" } ?? dir
            return [
                ModuleFile(path: dir, text: .failure(ModuleError(file: dir, line: nil, message: "\(what) cannot be read: \(error.reason)")))
            ]
        }
        return entries.filter { !$0.isDirectory && ($0.name.hasSuffix(".yaml") || $0.name.hasSuffix(".yml")) }.map { entry in
            let path = dir + "/" + entry.name
            do throws(SystemError) {
                let bytes = try FileSystem.readFile(path, limit: RuleModuleLoader.moduleSizeLimit)
                return ModuleFile(path: path, text: .success(String(decoding: bytes, as: UTF8.self)))
            } catch {
                return ModuleFile(path: path, text: .failure(ModuleError(file: path, line: nil, message: "cannot read: \(error.reason)")))
            }
        }
    }
}
