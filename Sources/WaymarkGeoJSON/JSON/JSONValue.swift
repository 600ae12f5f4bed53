/// A parsed JSON value with where it came from in the input, so later checks can point at
/// the exact line and column.
public struct JSONNode: Sendable {
    public var value: JSONValue
    /// Byte offset of the value's first byte in the input.
    public var start: Int
    /// Byte offset just past the value's last byte.
    public var end: Int
}

/// The JSON data model (RFC 8259). Numbers are `Double`s; objects keep their members in
/// input order (a later duplicate key does not replace an earlier one; `member(_:)` finds the first).
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// The JSON type's name, for messages: "null", "boolean", "number", "string", "array", "object".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// One `"key": value` of an object.
public struct JSONMember: Sendable {
    public var key: String
    /// Byte offset of the key's opening quote.
    public var keyStart: Int
    public var value: JSONNode
}

extension JSONNode {
    /// The value of the first member named `key`, when this is an object that has one.
    public func member(_ key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        for m in members where m.key == key { return m.value }
        return nil
    }

    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }
}
