/// `file://` URIs for absolute paths and back (RFC 8089; every byte outside the unreserved set
/// and "/" percent-encoded, as VS Code and Neovim write them).
package enum DocumentURI {
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)

    package static func from(path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// The absolute path of a `file://` URI (with or without an authority of "localhost"); nil
    /// for any other scheme or a malformed escape.
    package static func path(of uri: String) -> String? {
        var rest: Substring
        if uri.hasPrefix("file://localhost/") {
            rest = uri.dropFirst("file://localhost".count)
        } else if uri.hasPrefix("file:///") {
            rest = uri.dropFirst("file://".count)
        } else {
            return nil
        }
        if let q = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<q] }
        var bytes: [UInt8] = []
        var it = Array(rest.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        guard !bytes.contains(0) else { return nil }
        var path = String(decoding: bytes, as: UTF8.self)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
