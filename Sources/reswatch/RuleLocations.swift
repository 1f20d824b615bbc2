import ArgumentParser
import Flows
import Foundation
import RuleEngine
import SystemCalls

/// The rule modules a command runs with (`RuleLoading`), a failure said and exit status 2.
enum RuleLocations {
    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    static func loadRules(extra: [String]) throws -> RuleSet {
        do { return try RuleLoading.load(extra: extra, environment: ProcessEnvironment.current(), output: .process) } catch {
            throw CheckCommand.fail(error)
        }
    }

    static func requireRules(_ set: RuleSet, sources: RuleSources) throws {
        do { try RuleLoading.require(set, sources: sources, output: .process) } catch { throw CheckCommand.fail(error) }
    }
}
