/// Message headers in wire order. NATS allows repeated names, and names are compared without
/// regard to case on lookup, so this is a list rather than a dictionary.
public struct NATSHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var fields: [Field]

    public init() { fields = [] }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name` (case-insensitive).
    public subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// All values for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.map { (name: $0.name, value: $0.value) }.makeIterator()
    }

    public var description: String {
        "[" + fields.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }
}

/// A message as delivered by the server (MSG or HMSG).
public struct NATSMessage: Sendable, Hashable {
    public var subject: String
    public var reply: String?
    public var headers: NATSHeaders
    public var payload: [UInt8]
    /// The status code of the header block's first line (`NATS/1.0 503`), for the server's own
    /// control messages: 503 no responders, 404/408/409 pull endings, 100 heartbeats.
    public var status: Int?
    /// Text after the status code, e.g. "No Messages".
    public var statusDescription: String?

    public init(
        subject: String, reply: String? = nil, headers: NATSHeaders = NATSHeaders(), payload: [UInt8],
        status: Int? = nil, statusDescription: String? = nil
    ) {
        self.subject = subject
        self.reply = reply
        self.headers = headers
        self.payload = payload
        self.status = status
        self.statusDescription = statusDescription
    }

    /// The payload read as UTF-8 (lossy), handy for JSON bodies and logs.
    public var string: String { String(decoding: payload, as: UTF8.self) }
}
