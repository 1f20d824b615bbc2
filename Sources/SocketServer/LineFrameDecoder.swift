import NIOCore

/// One line of input, or the notice that a line was longer than the limit (it is discarded up to
/// its newline, and the connection carries on).
package enum Frame: Sendable, Equatable {
    case line([UInt8])
    case tooLong
}

/// Splits the byte stream at "\n" with a length limit (1 MiB per the protocol). Public for the
/// fuzz targets.
package struct LineFrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = Frame
    let limit: Int
    /// Discarding the rest of an over-long line.
    var discarding = false

    package init(limit: Int) { self.limit = limit }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let nl = view.firstIndex(of: 0x0A) {
            let length = nl - view.startIndex
            if discarding {
                buffer.moveReaderIndex(forwardBy: length + 1)
                discarding = false
                return .continue
            }
            var line = buffer.readBytes(length: length) ?? []
            buffer.moveReaderIndex(forwardBy: 1)
            if line.last == 0x0D { line.removeLast() }
            if line.count > limit {
                context.fireChannelRead(Self.wrapInboundOut(.tooLong))
            } else if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                context.fireChannelRead(Self.wrapInboundOut(.line(line)))
            }
            return .continue
        }
        if buffer.readableBytes > limit {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            if !discarding {
                discarding = true
                context.fireChannelRead(Self.wrapInboundOut(.tooLong))
            }
            return .needMoreData
        }
        return .needMoreData
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A final line without "\n" still counts (e.g. `printf '…' | socat`).
        if buffer.readableBytes > 0, !discarding {
            let line = buffer.readBytes(length: buffer.readableBytes) ?? []
            context.fireChannelRead(Self.wrapInboundOut(line.count > limit ? .tooLong : .line(line)))
        }
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
