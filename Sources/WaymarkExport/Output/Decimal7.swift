/// Fixed-decimal formatting without Foundation's locale-dependent formatters and never with an
/// exponent (XML Schema's `xsd:decimal` and KML's coordinates do not allow one).
enum Decimal7 {
    /// `value` rounded to `decimals` places, all of them written (`47.3559720`).
    static func format(_ value: Double, decimals: Int = 7) -> String {
        let scale = power(decimals)
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        let whole = Int64(scaled)
        let sign = value < 0 && whole != 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let integer = whole / Int64(scale)
        var fraction = String(whole % Int64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        return "\(sign)\(integer).\(fraction)"
    }

    /// The same without trailing zeros (`8.67`, `12`).
    static func trimmed(_ value: Double, decimals: Int = 7) -> String {
        var text = format(value, decimals: decimals)
        guard text.contains(".") else { return text }
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return text
    }

    /// `value` rounded to `decimals` places, as a number.
    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = power(decimals)
        return (value * scale).rounded() / scale
    }

    private static func power(_ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return scale
    }
}
