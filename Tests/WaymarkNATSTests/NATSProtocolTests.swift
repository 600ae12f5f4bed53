import NIOCore
import Testing

@testable import WaymarkNATS

@Suite("NATS wire protocol")
struct NATSProtocolTests {
    /// Parses every complete op in `bytes`, fed in chunks split at the given offsets.
    static func parseAll(_ bytes: [UInt8], splits: [Int] = []) throws -> [NATSServerOp] {
        var buffer = ByteBuffer()
        var ops: [NATSServerOp] = []
        var start = 0
        for end in splits + [bytes.count] {
            buffer.writeBytes(bytes[start..<end])
            start = end
            while let op = try NATSProtocol.parse(&buffer) { ops.append(op) }
        }
        #expect(buffer.readableBytes == 0)
        return ops
    }

    static let stream = Array(
        ("INFO {\"server_id\":\"S\",\"version\":\"2.9.10\",\"max_payload\":1048576,\"headers\":true}\r\n"
            + "PING\r\nPONG\r\n+OK\r\n-ERR 'Unknown Protocol Operation'\r\n"
            + "MSG foo.bar 7 5\r\nhello\r\n"
            + "MSG foo.bar 7 _INBOX.abc.1 0\r\n\r\n"
            + "HMSG jobs.1 9 $JS.ACK.S.C.1.2.3.4.5 34 37\r\nNATS/1.0\r\nA: 1\r\nB:  two words \r\n\r\nxyz\r\n"
            + "HMSG _INBOX.abc.2 1 34 34\r\nNATS/1.0 404 No Messages\r\nX: y\r\n\r\n\r\n"
            + "HMSG _INBOX.abc.3 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n").utf8)

    static let expected: [NATSServerOp] = [
        .info("{\"server_id\":\"S\",\"version\":\"2.9.10\",\"max_payload\":1048576,\"headers\":true}"),
        .ping, .pong, .ok, .err("Unknown Protocol Operation"),
        .message(sid: 7, NATSMessage(subject: "foo.bar", payload: Array("hello".utf8))),
        .message(sid: 7, NATSMessage(subject: "foo.bar", reply: "_INBOX.abc.1", payload: [])),
        .message(
            sid: 9,
            NATSMessage(
                subject: "jobs.1", reply: "$JS.ACK.S.C.1.2.3.4.5", headers: ["A": "1", "B": "two words"],
                payload: Array("xyz".utf8))),
        .message(
            sid: 1,
            NATSMessage(
                subject: "_INBOX.abc.2", headers: ["X": "y"], payload: [], status: 404, statusDescription: "No Messages")),
        .message(sid: 1, NATSMessage(subject: "_INBOX.abc.3", payload: [], status: 503)),
    ]

    @Test func parsesEveryOperation() throws {
        #expect(try Self.parseAll(Self.stream) == Self.expected)
    }

    @Test func parsesFramesSplitAtEveryByteBoundary() throws {
        for split in 1..<Self.stream.count {
            #expect(try Self.parseAll(Self.stream, splits: [split]) == Self.expected, "split at \(split)")
        }
        // And one byte at a time.
        #expect(try Self.parseAll(Self.stream, splits: Array(1..<Self.stream.count)) == Self.expected)
    }

    @Test func incompleteInputConsumesNothing() throws {
        var buffer = ByteBuffer(string: "MSG a 1 10\r\nhello")
        #expect(try NATSProtocol.parse(&buffer) == nil)
        #expect(buffer.readableBytes == 17)
    }

    @Test(arguments: [
        "FOO bar\r\n",
        "MSG a\r\n",
        "MSG a 1 2 3 4\r\n",
        "MSG a x 3\r\nabc\r\n",
        "MSG a 1 -3\r\n",
        "MSG a 1 3\r\nabcXY",
        "HMSG a 1 10 5\r\n",
        "HMSG a 1 5 5\r\nHTTP/\r\n",
        "HMSG a 1 15 15\r\nNATS/1.0\r\nA\r\n\r\n\r\n",
        "HMSG a 1 16 16\r\nNATS/1.0 abc\r\n\r\n\r\n",
        "PING extra\r\n",
        "INFO nope\r\n",
        "\r\n",
    ])
    func malformedInputThrows(_ text: String) {
        var buffer = ByteBuffer(string: text)
        #expect(throws: NATSError.self) { _ = try NATSProtocol.parse(&buffer) }
    }

    @Test func overlongControlLineThrows() {
        var buffer = ByteBuffer(repeating: UInt8(ascii: "A"), count: NATSProtocol.maxControlLine + 1)
        #expect(throws: NATSError.self) { _ = try NATSProtocol.parse(&buffer) }
    }

    @Test func encodesPublish() throws {
        var buffer = ByteBuffer()
        try NATSProtocol.writePublish(subject: "a.b", reply: nil, headers: NATSHeaders(), payload: Array("hi".utf8), into: &buffer)
        #expect(String(buffer: buffer) == "PUB a.b 2\r\nhi\r\n")

        buffer.clear()
        try NATSProtocol.writePublish(subject: "a.b", reply: "r.1", headers: ["K": "V"], payload: Array("hi".utf8), into: &buffer)
        // Header block "NATS/1.0\r\nK: V\r\n\r\n" is 18 bytes.
        #expect(String(buffer: buffer) == "HPUB a.b r.1 18 20\r\nNATS/1.0\r\nK: V\r\n\r\nhi\r\n")

        buffer.clear()
        try NATSProtocol.writeSubscribe(subject: "x.>", queue: "workers", sid: 4, into: &buffer)
        NATSProtocol.writeUnsubscribe(sid: 4, into: &buffer)
        #expect(String(buffer: buffer) == "SUB x.> workers 4\r\nUNSUB 4\r\n")
    }

    @Test func encodedHeadersRoundTripThroughParser() throws {
        var out = ByteBuffer()
        let headers: NATSHeaders = ["Nats-Msg-Id": "abc", "X-Multi": "1"]
        try NATSProtocol.writePublish(subject: "s", reply: nil, headers: headers, payload: [1, 2, 3], into: &out)
        // Turn the client's HPUB into the server's HMSG by rewriting the control line.
        var text = String(buffer: out)
        text = text.replacingOccurrences(of: "HPUB s ", with: "HMSG s 5 ")
        var inbound = ByteBuffer(string: text)
        let op = try NATSProtocol.parse(&inbound)
        #expect(op == .message(sid: 5, NATSMessage(subject: "s", headers: headers, payload: [1, 2, 3])))
    }

    @Test func rejectsBadSubjectsAndHeaders() {
        var buffer = ByteBuffer()
        #expect(throws: NATSError.invalidSubject("a b")) {
            try NATSProtocol.writePublish(subject: "a b", reply: nil, headers: NATSHeaders(), payload: [], into: &buffer)
        }
        #expect(throws: NATSError.invalidSubject("")) {
            try NATSProtocol.writePublish(subject: "", reply: nil, headers: NATSHeaders(), payload: [], into: &buffer)
        }
        #expect(throws: NATSError.self) {
            try NATSProtocol.writePublish(subject: "a", reply: nil, headers: ["K": "v\r\nX: injected"], payload: [], into: &buffer)
        }
        #expect(throws: NATSError.self) {
            try NATSProtocol.writePublish(subject: "a", reply: nil, headers: ["Bad Name": "v"], payload: [], into: &buffer)
        }
    }

    @Test func headerLookupIsCaseInsensitiveAndOrdered() {
        let headers = NATSHeaders([("A", "1"), ("b", "2"), ("a", "3")])
        #expect(headers["a"] == "1")
        #expect(headers.values(for: "A") == ["1", "3"])
        #expect(headers.map(\.name) == ["A", "b", "a"])
    }

    @Test func parsesAckSubjects() throws {
        let short = try #require(JetStreamMetadata(ackSubject: "$JS.ACK.ORDERS.worker.2.1043.77.1700000000000000000.12"))
        #expect(short.stream == "ORDERS")
        #expect(short.consumer == "worker")
        #expect(short.deliveryCount == 2)
        #expect(short.streamSequence == 1043)
        #expect(short.consumerSequence == 77)
        #expect(short.timestamp == 1_700_000_000_000_000_000)
        #expect(short.pending == 12)
        #expect(short.domain == nil)

        let long = try #require(
            JetStreamMetadata(ackSubject: "$JS.ACK.hub.ACCHASH.ORDERS.worker.1.5.6.1700000000000000000.0.rAnD0m"))
        #expect(long.domain == "hub")
        #expect(long.stream == "ORDERS")
        #expect(long.streamSequence == 5)
        let noDomain = try #require(JetStreamMetadata(ackSubject: "$JS.ACK._.ACCHASH.ORDERS.worker.1.5.6.17.0"))
        #expect(noDomain.domain == nil)
        #expect(noDomain.consumerSequence == 6)

        #expect(JetStreamMetadata(ackSubject: "_INBOX.x.1") == nil)
        #expect(JetStreamMetadata(ackSubject: "$JS.ACK.S.C.x.1.2.3.4") == nil)
        #expect(JetStreamMetadata(ackSubject: "$JS.ACK.S.C.1.2.3.4") == nil)
    }

    @Test func parsesURLs() throws {
        #expect(try NATSURL("nats://127.0.0.1:4333") == NATSURL(host: "127.0.0.1", port: 4333))
        #expect(try NATSURL("localhost") == NATSURL(host: "localhost", port: 4222))
        #expect(try NATSURL("nats://u:p%40ss@h:1") == NATSURL(host: "h", port: 1, user: "u", password: "p@ss"))
        #expect(try NATSURL("nats://[::1]:4222") == NATSURL(host: "::1", port: 4222))
        for bad in ["tls://h:4222", "nats://h:0", "nats://h:abc", "nats://", "http://h"] {
            #expect(throws: NATSError.invalidURL(bad)) { _ = try NATSURL(bad) }
        }
    }
}
