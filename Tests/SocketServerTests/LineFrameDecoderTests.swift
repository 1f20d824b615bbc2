import NIOCore
import NIOEmbedded
import NIOTestUtils
import SocketServer
import Testing

/// The socket's line framing, under NIO's own decoder verifier: every input is fed whole, byte by
/// byte and in random chunks, and must give the same frames each way.
@Suite struct LineFrameDecoderTests {
    static func buffer(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
    static func line(_ text: String) -> Frame { .line(Array(text.utf8)) }

    @Test func framesDoNotDependOnHowTheBytesArrive() throws {
        let cases: [(ByteBuffer, [Frame])] = [
            (Self.buffer("{\"id\":1}\n"), [Self.line("{\"id\":1}")]),
            (Self.buffer("a\r\nb\n"), [Self.line("a"), Self.line("b")]),  // CRLF as LF
            (Self.buffer("\n  \n\t\nc\n"), [Self.line("c")]),  // blank lines are skipped
            (Self.buffer("0123456789\n"), [Self.line("0123456789")]),  // exactly the limit
            (Self.buffer("0123456789A\nok\n"), [.tooLong, Self.line("ok")]),  // one over: said, and the next line still read
        ]
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: cases) { LineFrameDecoder(limit: 10) }
    }

    /// A line with no end that passes the limit is said once, the rest of it thrown away, and the
    /// stream goes on after its newline.
    @Test func anEndlessLineIsSaidOnceAndDropped() throws {
        let long = String(repeating: "x", count: 40)
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: [(Self.buffer(long + "\nnext\n"), [.tooLong, Self.line("next")])])
        {
            LineFrameDecoder(limit: 10)
        }
    }

    /// A last line without a newline still counts when the client closes (`printf '…' | socat`).
    @Test func aFinalLineWithoutANewlineCountsAtTheEnd() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(limit: 10)))
        try channel.writeInbound(Self.buffer("a\nla"))
        try channel.writeInbound(Self.buffer("st"))
        #expect(try channel.readInbound(as: Frame.self) == Self.line("a"))
        #expect(try channel.readInbound(as: Frame.self) == nil, "not before the end")
        _ = try channel.finish()
        #expect(try channel.readInbound(as: Frame.self) == Self.line("last"))
    }
}
