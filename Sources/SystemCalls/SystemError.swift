#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed libc call: which call, on what, and the errno it set (read immediately after the call).
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public let call: String
    public let path: String
    public let errno: Int32
    /// A reason of reswatch's own, when errno alone does not say it ("a FIFO, not a regular file").
    public let detail: String?

    public init(call: String, path: String, errno: Int32, detail: String? = nil) {
        self.call = call
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    /// Stable, human readable reason ("Permission denied").
    public var reason: String { detail ?? String(cString: strerror(errno)) }

    public var isNotFound: Bool { errno == ENOENT || errno == ENOTDIR }
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    public var description: String { "\(call)(\(path)): \(reason)" }
}

/// Runs a libc call, retrying on EINTR, and turns -1 into a `SystemError` carrying errno.
@inline(__always)
func retryingEINTR<T: BinaryInteger>(
    _ call: String, _ path: String, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(call: call, path: path, errno: code)
    }
}
