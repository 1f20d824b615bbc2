import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import ReswatchProtocol
import SystemCalls

/// LSP's base protocol over stdin/stdout: `Content-Length` framing by NIOExtras'
/// `NIOJSONRPCFraming`, a bounded input buffer (a hostile or broken client cannot make the
/// server buffer gigabytes), and an ordered stream of what arrives.
package final class StdioTransport: Sendable {
    package enum Inbound: Sendable {
        case message([UInt8])
        /// The byte stream cannot be followed any more (a header without Content-Length, a bad
        /// length, a message over the limit).
        case framingError(String)
        case closed
    }

    /// The largest message accepted (a workspace edit or a snapshot is far below it).
    package static let maximumMessageBytes = 16 << 20

    let channel: any Channel
    package let inbound: AsyncStream<Inbound>
    /// The thread copying output into a file or /dev/null, when stdout is one.
    let outputCopier: StreamPump.Copier?

    package init(input: Int32 = 0, output: Int32 = 1) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Inbound.self)
        inbound = stream
        let (outputFD, copier) = try StreamPump.writable(output)
        outputCopier = copier
        channel = try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(
                            NIOJSONRPCFraming.ContentLengthHeaderFrameDecoder(), maximumBufferSize: Self.maximumMessageBytes + 4096),
                        NIOJSONRPCFraming.ContentLengthHeaderFrameEncoder(),
                        InboundBridge(continuation))
                }
            }
            // A file or /dev/null (`reswatch lsp > file`) goes through a pipe: epoll refuses them.
            .takingOwnershipOfDescriptors(input: StreamPump.readable(input), output: outputFD)
            .get()
    }

    /// Writes one message (framed).
    package func send(_ message: JSONValue) {
        var bytes = RPCEncoder.line(message)
        bytes.removeLast()  // the socket protocol's newline is not part of an LSP message
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    /// Waits until everything written so far has gone out.
    package func flush() async {
        try? await channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).get()
    }

    /// Before the process exits: everything written is flushed and, where stdout is a file, has
    /// reached it.
    package func finish() async {
        await flush()
        guard let outputCopier else { return }
        try? await channel.close()
        outputCopier.finish()
    }

    final class InboundBridge: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<Inbound>.Continuation
        init(_ continuation: AsyncStream<Inbound>.Continuation) { self.continuation = continuation }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            continuation.yield(.message(Array(buffer.readableBytesView)))
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelEvent, case .inputClosed = event as? ChannelEvent { continuation.yield(.closed) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let text: String
            switch error {
            case NIOJSONRPCFraming.ContentLengthHeaderFrameDecoder.DecodingError.missingContentLengthHeader:
                text = "a message header without Content-Length"
            case NIOJSONRPCFraming.ContentLengthHeaderFrameDecoder.DecodingError.illegalContentLengthHeaderValue(let v):
                text = "Content-Length is not a length: \(v.trimmingCharacters(in: .whitespacesAndNewlines))"
            case is ByteToMessageDecoderError.PayloadTooLargeError:
                text = "a message (or header) over \(StdioTransport.maximumMessageBytes) bytes"
            default:
                text = "\(error)"
            }
            continuation.yield(.framingError(text))
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.yield(.closed)
            continuation.finish()
        }
    }
}
