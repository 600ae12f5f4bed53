/// The name–value pairs of a query string or an `application/x-www-form-urlencoded` body.
///
/// Pairs are separated by `&`, names from values by the first `=` (a name alone has the empty
/// value); empty pairs are skipped. `+` decodes to a space and `%XX` to the byte XX in both
/// forms, as the WHATWG URL standard and Traccar's decoder do, so clients already escape a
/// literal `+` (a time zone offset) as `%2B`. Decoded names and values must be UTF-8. A name
/// given twice is an error: which value counts would be a guess.
struct OsmAndParameters {
    private var values: [String: String] = [:]

    init<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(OsmAndError) {
        for pair in bytes.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            // The raw name stands in for a name that does not decode.
            let fallback = String(decoding: rawName, as: UTF8.self)
            let name = try Self.decode(rawName, field: fallback)
            guard !name.isEmpty else { continue }
            let value = try Self.decode(rawValue, field: name)
            guard values.updateValue(value, forKey: name) == nil else {
                throw OsmAndError(code: .repeatedParameter, field: name, message: "given twice; send each parameter once")
            }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// Percent-decodes `raw`, with `+` as a space.
    private static func decode<Raw: Collection<UInt8>>(_ raw: Raw, field: String) throws(OsmAndError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            let byte = raw[index]
            raw.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != raw.endIndex, let high = hexValue(raw[index]),
                    raw.index(after: index) != raw.endIndex, let low = hexValue(raw[raw.index(after: index)])
                else {
                    let escape = String(decoding: [byte] + raw[index...].prefix(2), as: UTF8.self)
                    throw OsmAndError(
                        code: .badEncoding, field: field,
                        message: "malformed escape \"\(escape)\"; write a byte as % and two hexadecimal digits (%2B for +)")
                }
                bytes.append(high << 4 | low)
                raw.formIndex(&index, offsetBy: 2)
            default:
                bytes.append(byte)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw OsmAndError(code: .badEncoding, field: field, message: "not UTF-8 text after percent-decoding")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
