import NIOCore

/// One operation sent by the server.
public enum NATSServerOp: Sendable, Equatable {
    /// `INFO {json}`: the JSON text, decoded by the connection.
    case info(String)
    /// `MSG` or `HMSG` for subscription `sid`.
    case message(sid: UInt64, NATSMessage)
    case ping
    case pong
    case ok
    /// `-ERR 'text'`, quotes removed.
    case err(String)
}

/// The NATS wire protocol as pure functions over `ByteBuffer`: the server-op parser used by the
/// channel's decoder and the encoders for what the client sends. No I/O, so it is tested byte by byte.
public enum NATSProtocol {
    /// Longest control line accepted. INFO in a large cluster lists many URLs; anything longer is
    /// taken as garbage rather than buffered forever.
    public static let maxControlLine = 1 << 20
    /// Largest message body accepted (the server's own limit is at most 64 MiB).
    public static let maxPayload = 64 << 20

    // MARK: Parsing

    /// Parses one server operation from the front of `buffer`. Returns nil and consumes nothing
    /// when the operation is not complete yet; throws `NATSError.protocolViolation` on anything
    /// malformed (the caller must then close the connection, since framing is lost).
    public static func parse(_ buffer: inout ByteBuffer) throws(NATSError) -> NATSServerOp? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if view.count > maxControlLine {
                throw .protocolViolation("control line longer than \(maxControlLine) bytes")
            }
            return nil
        }
        let lineLength = newline - view.startIndex
        var lineEnd = newline
        if lineEnd > view.startIndex, view[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let line = view[view.startIndex..<lineEnd]
        let consumedLine = lineLength + 1

        let opEnd = line.firstIndex(where: isSpace) ?? line.endIndex
        let op = String(decoding: line[line.startIndex..<opEnd], as: UTF8.self).uppercased()
        let rest = line[opEnd...]

        switch op {
        case "MSG", "HMSG":
            let args = rest.split(whereSeparator: isSpace).map { String(decoding: $0, as: UTF8.self) }
            let hasHeaders = op == "HMSG"
            let header = try parseMessageArgs(args, hasHeaders: hasHeaders, line: line)
            let needed = consumedLine + header.totalLength + 2
            guard buffer.readableBytes >= needed else { return nil }
            let bodyStart = buffer.readerIndex + consumedLine
            let trailerStart = bodyStart + header.totalLength
            guard buffer.getInteger(at: trailerStart, as: UInt16.self) == 0x0D0A else {
                throw .protocolViolation("\(op) payload for '\(header.subject)' is not followed by CRLF")
            }
            let headerBytes = buffer.getBytes(at: bodyStart, length: header.headerLength) ?? []
            let payload =
                buffer.getBytes(at: bodyStart + header.headerLength, length: header.totalLength - header.headerLength)
                ?? []
            var message = NATSMessage(subject: header.subject, reply: header.reply, payload: payload)
            if hasHeaders {
                let block = try parseHeaderBlock(headerBytes)
                message.headers = block.headers
                message.status = block.status
                message.statusDescription = block.statusDescription
            }
            buffer.moveReaderIndex(forwardBy: needed)
            return .message(sid: header.sid, message)
        case "PING", "PONG", "+OK":
            guard rest.allSatisfy(isSpace) else {
                throw .protocolViolation("unexpected arguments: \(printable(line))")
            }
            buffer.moveReaderIndex(forwardBy: consumedLine)
            return op == "PING" ? .ping : op == "PONG" ? .pong : .ok
        case "-ERR":
            var text = trimmed(String(decoding: rest, as: UTF8.self))
            if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") { text = String(text.dropFirst().dropLast()) }
            buffer.moveReaderIndex(forwardBy: consumedLine)
            return .err(text)
        case "INFO":
            let json = trimmed(String(decoding: rest, as: UTF8.self))
            guard json.hasPrefix("{") else { throw .protocolViolation("INFO without a JSON object") }
            buffer.moveReaderIndex(forwardBy: consumedLine)
            return .info(json)
        default:
            throw .protocolViolation("unexpected server line: \(printable(line))")
        }
    }

    struct MessageArgs {
        var subject: String
        var sid: UInt64
        var reply: String?
        var headerLength: Int
        var totalLength: Int
    }

    static func parseMessageArgs(
        _ args: [String], hasHeaders: Bool, line: ByteBufferView.SubSequence
    ) throws(NATSError) -> MessageArgs {
        let sizeCount = hasHeaders ? 2 : 1
        guard args.count == 2 + sizeCount || args.count == 3 + sizeCount else {
            throw .protocolViolation("wrong number of arguments: \(printable(line))")
        }
        guard let sid = UInt64(args[1]) else { throw .protocolViolation("bad sid: \(printable(line))") }
        let reply = args.count == 3 + sizeCount ? args[2] : nil
        let sizes = args.suffix(sizeCount).map { Int($0) }
        guard sizes.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= maxPayload }) else {
            throw .protocolViolation("bad size: \(printable(line))")
        }
        let total = sizes.last!!
        let headerLength = hasHeaders ? sizes[0]! : 0
        guard headerLength <= total else {
            throw .protocolViolation("header length exceeds total length: \(printable(line))")
        }
        return MessageArgs(subject: args[0], sid: sid, reply: reply, headerLength: headerLength, totalLength: total)
    }

    /// Parses `NATS/1.0[ code[ description]]\r\nName: Value\r\n...\r\n`.
    public static func parseHeaderBlock(
        _ bytes: [UInt8]
    ) throws(NATSError) -> (headers: NATSHeaders, status: Int?, statusDescription: String?) {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, first.hasPrefix("NATS/1.0") else {
            throw .protocolViolation("header block does not start with NATS/1.0")
        }
        lines.removeFirst()
        var status: Int?
        var statusDescription: String?
        let statusText = trimmed(String(first.dropFirst("NATS/1.0".count)))
        if !statusText.isEmpty {
            let parts = statusText.split(separator: " ", maxSplits: 1)
            guard let code = Int(parts[0]) else { throw .protocolViolation("bad status line '\(first)'") }
            status = code
            statusDescription = parts.count > 1 ? trimmed(String(parts[1])) : nil
        }
        var headers = NATSHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw .protocolViolation("header line without ':': '\(line.prefix(64))'")
            }
            let name = trimmed(String(line[..<colon]))
            guard !name.isEmpty else { throw .protocolViolation("empty header name") }
            headers.append(name, trimmed(String(line[line.index(after: colon)...])))
        }
        return (headers, status, statusDescription)
    }

    // MARK: Encoding

    public static func writeConnect(json: String, into buffer: inout ByteBuffer) {
        buffer.writeString("CONNECT ")
        buffer.writeString(json)
        buffer.writeString("\r\n")
    }

    public static func writePing(into buffer: inout ByteBuffer) { buffer.writeString("PING\r\n") }
    public static func writePong(into buffer: inout ByteBuffer) { buffer.writeString("PONG\r\n") }

    /// `PUB subject [reply] n`, or `HPUB subject [reply] hdrlen total` when there are headers.
    public static func writePublish(
        subject: String, reply: String?, headers: NATSHeaders, payload: [UInt8], into buffer: inout ByteBuffer
    ) throws(NATSError) {
        try validateSubject(subject)
        if let reply { try validateSubject(reply) }
        let replyPart = reply.map { " " + $0 } ?? ""
        if headers.isEmpty {
            buffer.writeString("PUB \(subject)\(replyPart) \(payload.count)\r\n")
        } else {
            var block = "NATS/1.0\r\n"
            for field in headers.fields {
                try validateHeader(field)
                block += "\(field.name): \(field.value)\r\n"
            }
            block += "\r\n"
            let headerLength = block.utf8.count
            buffer.writeString("HPUB \(subject)\(replyPart) \(headerLength) \(headerLength + payload.count)\r\n")
            buffer.writeString(block)
        }
        buffer.writeBytes(payload)
        buffer.writeString("\r\n")
    }

    public static func writeSubscribe(
        subject: String, queue: String?, sid: UInt64, into buffer: inout ByteBuffer
    ) throws(NATSError) {
        try validateSubject(subject)
        if let queue { try validateSubject(queue) }
        buffer.writeString("SUB \(subject)\(queue.map { " " + $0 } ?? "") \(sid)\r\n")
    }

    public static func writeUnsubscribe(sid: UInt64, into buffer: inout ByteBuffer) {
        buffer.writeString("UNSUB \(sid)\r\n")
    }

    public static func validateSubject(_ subject: String) throws(NATSError) {
        guard !subject.isEmpty, !subject.utf8.contains(where: { isSpace($0) || $0 == 13 || $0 == 10 }) else {
            throw .invalidSubject(subject)
        }
    }

    static func validateHeader(_ field: NATSHeaders.Field) throws(NATSError) {
        let badName = field.name.isEmpty || field.name.utf8.contains { $0 <= 32 || $0 == UInt8(ascii: ":") || $0 == 127 }
        let badValue = field.value.utf8.contains { $0 == 13 || $0 == 10 }
        if badName || badValue { throw .invalidHeader("\(field.name): \(field.value)") }
    }

    // MARK: Helpers

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    static func trimmed(_ s: String) -> String {
        var slice = Substring(s)
        while let c = slice.first, c == " " || c == "\t" { slice.removeFirst() }
        while let c = slice.last, c == " " || c == "\t" { slice.removeLast() }
        return String(slice)
    }

    static func printable(_ line: ByteBufferView.SubSequence) -> String {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return "'" + String(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? "?" : Character($0) }) + "'"
    }
}

/// Frames the TCP stream into server operations for the channel pipeline.
struct NATSFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = NATSServerOp

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let op = try NATSProtocol.parse(&buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(op))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
