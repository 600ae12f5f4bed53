/// Builds one compact JSON object with keys in the order they are added: the shape of every
/// JSON Lines record Waymark prints. Numbers use Swift's shortest round-trip form, so a
/// coordinate prints exactly as it was read.
public struct JSONObjectWriter: Sendable {
    public private(set) var text = "{"
    private var empty = true

    public init() {
        text.reserveCapacity(256)  // most records fit: no regrowth while they are built
    }

    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return addRaw(key, "null") }
        addRaw(key, Self.quoted(value))
    }

    public mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return addRaw(key, "null") }
        addRaw(key, Self.number(value))
    }

    public mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }

    public mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }

    public mutating func add(_ key: String, _ values: [String]) {
        addRaw(key, "[" + values.map(Self.quoted).joined(separator: ",") + "]")
    }

    /// Adds a value that is already JSON text (a nested object, say).
    public mutating func addRaw(_ key: String, _ json: String) {
        if !empty { text.append(",") }
        empty = false
        if Self.needsEscapes(key) {
            text.append(Self.quoted(key))
        } else {
            text.append("\"")
            text.append(key)
            text.append("\"")
        }
        text.append(":")
        text.append(json)
    }

    /// The finished object.
    public var object: String { text + "}" }

    /// A finite number without a needless `.0` on integers (`12`, `-0.5`, `1e-07`).
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Whether `string` holds a character a JSON string literal must escape (a quote, a
    /// backslash, a control character); most keys and values hold none.
    static func needsEscapes(_ string: String) -> Bool {
        string.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// A JSON string literal with the escapes RFC 8259 requires.
    public static func quoted(_ string: String) -> String {
        guard needsEscapes(string) else { return "\"" + string + "\"" }
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
