/// Where text output goes: a file, standard output, or memory in tests.
public protocol TextSink {
    mutating func write(_ text: String) throws
    mutating func flush() throws
}

/// Collects text in memory.
public struct StringSink: TextSink, Sendable {
    public private(set) var text = ""
    public init() {}
    public mutating func write(_ text: String) { self.text += text }
    public mutating func flush() {}
}
