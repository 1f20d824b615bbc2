import CFuzzerDriver
import Foundation
import FuzzTargets

/// `reswatch-fuzz TARGET FILE...` replays inputs through one reader and prints each outcome (to
/// replay a crash, or to see what an input comes to). Built by `make fuzz` (RESWATCH_FUZZ=1, with
/// libFuzzer and the address sanitizer), `reswatch-fuzz TARGET [libFuzzer options] [CORPUS...]`
/// fuzzes that reader.
@main struct FuzzMain {
    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        guard let name = args.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("usage: reswatch-fuzz \(names) [FILE... | libFuzzer options and corpus]\n".utf8))
            exit(2)
        }
        #if FUZZING
            fuzz(target)
        #else
            replay(target, Array(args.dropFirst()))
        #endif
    }

    static func replay(_ target: FuzzTarget, _ paths: [String]) {
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(path): cannot read\n".utf8))
                exit(2)
            }
            switch target.run(Array(data)) {
            case .accepted: print("\(path): accepted")
            case .rejected(let why): print("\(path): rejected: \(why)")
            }
        }
    }

    /// Hands the process to libFuzzer with the target's name taken out of argv.
    static func fuzz(_ target: FuzzTarget) {
        Target.current = target
        var arguments = CommandLine.arguments
        arguments.remove(at: 1)
        var pointers = arguments.map { strdup($0) } + [nil]
        var argc = Int32(arguments.count)
        let status = pointers.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var argv = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                guard let data else { return 0 }
                _ = Target.current?.run(Array(UnsafeBufferPointer(start: data, count: size)))
                return 0
            }
        }
        exit(status)
    }
}

/// The reader libFuzzer's C callback calls (a C function pointer cannot capture it). Set once
/// before fuzzing starts; libFuzzer calls back on that one thread.
enum Target {
    nonisolated(unsafe) static var current: FuzzTarget?
}
