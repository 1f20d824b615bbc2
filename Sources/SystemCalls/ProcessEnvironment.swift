import Glibc

/// The environment as the process holds it. Foundation's `ProcessInfo.environment` decodes each
/// value lossily: a byte that is not UTF-8 becomes U+FFFD, so `RESWATCH_SOCKET=/run/a\xFFb.sock`
/// bound and dialled a socket at another path (`a\xEF\xBF\xBDb.sock`) without a word. Each
/// name and value is read from `environ`'s bytes through `FileName.decode` instead, which keeps
/// every byte, as command-line arguments are (`RawArguments`).
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let count = strlen(pointer)
            let text = UnsafeRawPointer(pointer).withMemoryRebound(to: UInt8.self, capacity: count) {
                UnsafeBufferPointer(start: $0, count: count)
            }
            // `NAME=value`; an entry without `=` is no variable (getenv would not find it either).
            if let equals = text.firstIndex(of: UInt8(ascii: "=")), equals > 0 {
                let name = FileName.decode(UnsafeBufferPointer(rebasing: text[..<equals]))
                // The first of two entries of one name is the one getenv returns.
                if result[name] == nil { result[name] = FileName.decode(UnsafeBufferPointer(rebasing: text[(equals + 1)...])) }
            }
            entry += 1
        }
        return result
    }
}
