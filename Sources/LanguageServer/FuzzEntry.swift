import Foundation
import NIOCore
import NIOEmbedded
import NIOExtras
import Repair
import ReswatchProtocol

/// The language server's readers of hostile input, for the fuzz targets: the Content-Length
/// framing (bounded), each message's JSON, the URIs it names, and the Contents.json scanner that
/// quick fixes use on files from the tree.
package enum LanguageServerFuzz {
    /// nil when everything was read; else why the input was turned down.
    package static func exercise(_ data: [UInt8]) -> String? {
        // The bytes as a Contents.json a quick fix would edit.
        _ = JSONSpans.arrayElements(in: data, key: "images")
        _ = TextPosition.position(of: data.count / 2, in: data)
        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(
                NIOJSONRPCFraming.ContentLengthHeaderFrameDecoder(), maximumBufferSize: StdioTransport.maximumMessageBytes + 4096))
        defer { _ = try? channel.finish() }
        var refusal: String?
        do {
            try channel.writeInbound(channel.allocator.buffer(bytes: data))
            while let frame = try channel.readInbound(as: ByteBuffer.self) {
                let bytes = Array(frame.readableBytesView)
                guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
                    refusal = "a message that is not JSON"
                    continue
                }
                if let uri = message["params"]?["textDocument"]?["uri"]?.string, DocumentURI.path(of: uri) == nil {
                    refusal = "not a file URI: \(uri)"
                }
                for folder in message["params"]?["workspaceFolders"]?.array ?? [] {
                    _ = folder["uri"]?.string.flatMap(DocumentURI.path(of:))
                }
            }
        } catch {
            return "framing: \(error)"
        }
        return refusal
    }
}
