extension Timestamp {
    /// Parses an RFC 3339 / xsd:dateTime instant: `YYYY-MM-DDTHH:MM:SS`, optional fractional
    /// seconds of any length, then `Z`, `+HH:MM` or `-HH:MM`. A time with no zone (which
    /// xsd:dateTime allows and some GPX writers emit) is taken as UTC. Returns `nil` on anything
    /// else, including impossible dates such as February 30.
    public init?<Bytes: Collection<UInt8>>(rfc3339 bytes: Bytes) where Bytes.Index == Int {
        var parser = RFC3339Scanner(bytes: bytes)
        guard let value = parser.parse() else { return nil }
        self = value
    }

    /// The same, for a byte buffer: a concrete overload, so readers in other modules (the GPX
    /// scanner) get the specialized scanner instead of the generic one, which allocates.
    public init?(rfc3339 bytes: UnsafeBufferPointer<UInt8>) {
        var parser = RFC3339Scanner(bytes: bytes)
        guard let value = parser.parse() else { return nil }
        self = value
    }

    public init?(rfc3339 string: String) {
        var copy = string
        let parsed = copy.withUTF8 { Timestamp(rfc3339: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// RFC 3339 in UTC with a `Z`: whole seconds when the instant has no fraction, else the
    /// fraction with trailing zeros removed (`2008-08-21T13:57:20Z`, `…:20.25Z`).
    public var rfc3339: String {
        let (seconds, nanos) = nanosecondsSince1970.quotientAndRemainder(dividingBy: 1_000_000_000)
        var wholeSeconds = Int(seconds)
        var fraction = Int(nanos)
        if fraction < 0 {
            fraction += 1_000_000_000
            wholeSeconds -= 1
        }
        let (days, secondOfDay) = wholeSeconds.floorDivided(by: 86_400)
        let date = CivilDate.civil(days: days)
        var text = Self.pad(date.year, 4) + "-" + Self.pad(date.month, 2) + "-" + Self.pad(date.day, 2)
        text += "T" + Self.pad(secondOfDay / 3600, 2) + ":" + Self.pad(secondOfDay / 60 % 60, 2)
        text += ":" + Self.pad(secondOfDay % 60, 2)
        if fraction != 0 {
            var digits = Self.pad(fraction, 9)
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Int {
    /// Floor division and its non-negative remainder.
    fileprivate func floorDivided(by divisor: Int) -> (Int, Int) {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}

/// A byte-level scanner for RFC 3339 instants; no Foundation, no allocation.
private struct RFC3339Scanner<Bytes: Collection<UInt8>> where Bytes.Index == Int {
    let bytes: Bytes
    var position: Int

    init(bytes: Bytes) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    mutating func parse() -> Timestamp? {
        guard let year = digits(4), expect(UInt8(ascii: "-")),
            let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2), expect(UInt8(ascii: "T")) || expect(UInt8(ascii: "t")),
            let hour = digits(2), expect(UInt8(ascii: ":")),
            let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var nanos = 0
        if expect(UInt8(ascii: ".")) {
            var scale = 100_000_000
            var count = 0
            while position < bytes.endIndex, let d = digit(bytes[position]) {
                nanos += d * scale
                scale /= 10
                count += 1
                position += 1
            }
            guard count > 0 else { return nil }
        }
        var offsetSeconds = 0
        if position < bytes.endIndex {
            let zone = bytes[position]
            if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
                position += 1
            } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
                position += 1
                guard let oh = digits(2), expect(UInt8(ascii: ":")), let om = digits(2), oh < 24, om < 60
                else { return nil }
                offsetSeconds = (oh * 3600 + om * 60) * (zone == UInt8(ascii: "+") ? 1 : -1)
            } else {
                return nil
            }
        }
        guard position == bytes.endIndex else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        let (total, overflow) = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        // The fraction can carry the last second past Int64 (2262-04-11T23:47:16.9Z): checked too.
        let (withFraction, fractionOverflow) = total.addingReportingOverflow(Int64(nanos))
        guard !overflow, !fractionOverflow else { return nil }
        return Timestamp(nanosecondsSince1970: withFraction)
    }

    private func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    private mutating func digits(_ count: Int) -> Int? {
        guard bytes.endIndex - position >= count else { return nil }
        var value = 0
        for _ in 0..<count {
            guard let d = digit(bytes[position]) else { return nil }
            value = value * 10 + d
            position += 1
        }
        return value
    }

    private mutating func expect(_ byte: UInt8) -> Bool {
        guard position < bytes.endIndex, bytes[position] == byte else { return false }
        position += 1
        return true
    }
}
