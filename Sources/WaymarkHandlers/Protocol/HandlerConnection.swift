import NIOCore
import Synchronization

/// One handler's connection: the lines of each read in (`readLines`), lines out (`send`), on
/// the connection's NIO channel. Every method may be called from any thread and never blocks.
public final class HandlerConnection: Sendable, Hashable {
    /// Longest line a handler may send (bytes); a longer one ends the connection.
    static let maximumLine = 1 << 20

    let channel: any Channel
    private let reader = Mutex(Reader.waiting(lines: []))

    /// Where read lines go: nowhere yet (kept until `readLines`), a consumer, or nowhere any
    /// more (the connection ended).
    private enum Reader {
        case waiting(lines: [[String]], ended: Bool = false)
        case reading(lines: @Sendable ([String]) -> Void, ended: @Sendable () -> Void)
        case finished
    }

    init(channel: any Channel) { self.channel = channel }

    /// Reads until the peer closes or `close` is called: the complete lines of each read
    /// (without their newlines, in order) go to `lines` together, then `ended` runs once.
    public func readLines(_ lines: @escaping @Sendable ([String]) -> Void, ended: @escaping @Sendable () -> Void) {
        let (early, hadEnded) = reader.withLock { reader -> ([[String]], Bool) in
            guard case .waiting(let early, let hadEnded) = reader else { return ([], false) }
            reader = hadEnded ? .finished : .reading(lines: lines, ended: ended)
            return (early, hadEnded)
        }
        for batch in early { lines(batch) }
        if hadEnded { ended() }
    }

    /// From the channel's handler: the complete lines of one read.
    func received(_ lines: [String]) {
        let consumer = reader.withLock { reader -> (@Sendable ([String]) -> Void)? in
            switch reader {
            case .waiting(var early, let ended):
                early.append(lines)
                reader = .waiting(lines: early, ended: ended)
                return nil
            case .reading(let consumer, _): return consumer
            case .finished: return nil
            }
        }
        consumer?(lines)
    }

    /// From the channel's handler: the connection is gone.
    func inactive() {
        let ended = reader.withLock { reader -> (@Sendable () -> Void)? in
            switch reader {
            case .waiting(let early, _):
                reader = .waiting(lines: early, ended: true)
                return nil
            case .reading(_, let ended):
                reader = .finished
                return ended
            case .finished: return nil
            }
        }
        ended?()
    }

    /// Queues `line` (a newline is added).
    public func send(_ line: String) { send(lines: [line]) }

    /// Queues `lines` to go out together, a newline after each.
    public func send(lines: [String]) {
        guard !lines.isEmpty else { return }
        var buffer = channel.allocator.buffer(capacity: lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            buffer.writeString(line)
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        channel.writeAndFlush(buffer, promise: nil)
    }

    /// Ends the connection (idempotent): the peer sees end of file, and `ended` follows.
    public func close() {
        channel.close(promise: nil)
    }

    public static func == (a: HandlerConnection, b: HandlerConnection) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Splits a connection's bytes into lines for its `HandlerConnection`, on the channel's event loop.
final class HandlerLineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let connection: HandlerConnection
    private var pending: ByteBuffer?

    init(_ connection: HandlerConnection) { self.connection = connection }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if pending == nil { pending = bytes } else { pending!.writeBuffer(&bytes) }
        var lines: [String] = []
        while let newline = pending!.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - pending!.readerIndex
            lines.append(pending!.readString(length: length) ?? "")
            pending!.moveReaderIndex(forwardBy: 1)
        }
        if pending!.readableBytes == 0 {
            pending = nil
        } else if pending!.readableBytes > HandlerConnection.maximumLine {
            context.close(promise: nil)
        } else {
            pending!.discardReadBytes()
        }
        if !lines.isEmpty { connection.received(lines) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.inactive()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
