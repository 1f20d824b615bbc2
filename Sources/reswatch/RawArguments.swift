import Foundation
import SystemCalls

/// The command line as the kernel passed it. Swift's `CommandLine.arguments` decodes each argument
/// lossily: a byte that is not UTF-8 becomes U+FFFD, so a folder named `a\xFFb` given to `check`,
/// `daemon` or `watch add` was looked for as `a\u{FFFD}b` and reported missing. Each argument is read
/// from argv's bytes through `FileName.decode` instead, which keeps every byte (and shows it as
/// `\xFF` in output), the way names found by a walk already are.
enum RawArguments {
    /// Every argument, the program's name first.
    static func all() -> [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return UnsafeRawPointer(argument).withMemoryRebound(to: UInt8.self, capacity: 1) { start in
                FileName.decode(UnsafeBufferPointer(start: start, count: strlen(argument)))
            }
        }
    }
}
