import WaymarkCore

/// The times a CSV column may hold: an RFC 3339 instant (`2024-03-01T08:15:00Z`, a zone
/// optional, UTC without one), the same with a space for the `T` (`2024-03-01 08:15:00.5`,
/// UTC unless a zone follows), or a Unix epoch count: seconds below 10^11, milliseconds from
/// 10^11 (1973-03-03 in milliseconds) up to 10^14; a count past 2262 (the end of `Timestamp`)
/// is not a time.
enum CSVTime {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard let first = bytes.first else { return nil }
        if first &- 0x30 < 10, bytes.count <= 20, let epoch = epoch(bytes) { return epoch }
        if bytes.count > 10 && bytes[10] == 0x20 {
            return withTCopy(bytes) { Timestamp(rfc3339: $0) }
        }
        return Timestamp(rfc3339: bytes)
    }

    /// A date column's `YYYY-MM-DD` and a time column's `HH:MM:SS[.fff][zone]`, together.
    static func parse(date: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard date.count == 10, time.count >= 8, time.count < 48 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 11 + time.count) { buffer in
            _ = buffer.initialize(fromContentsOf: date)
            buffer[10] = UInt8(ascii: "T")
            _ = UnsafeMutableBufferPointer(rebasing: buffer[11...]).initialize(fromContentsOf: time)
            return Timestamp(rfc3339: UnsafeBufferPointer(buffer))
        }
    }

    /// Digits with an optional fraction; nil for anything else or a count too large.
    private static func epoch(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var whole: Int64 = 0
        var index = 0
        while index < bytes.count, bytes[index] &- 0x30 < 10 {
            whole = whole * 10 + Int64(bytes[index] &- 0x30)
            index += 1
            if whole >= 100_000_000_000_000 { return nil }
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1_000_000_000
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
            index += 1
            while index < bytes.count, bytes[index] &- 0x30 < 10 {
                if scale > 1 {
                    scale /= 10
                    fraction += Int64(bytes[index] &- 0x30) * scale
                }
                index += 1
            }
            guard index == bytes.count else { return nil }
        }
        // Seconds below 10^11, milliseconds above; nil past what a Timestamp holds (2262).
        let (unit, scaled) = whole < 100_000_000_000 ? (Int64(1_000_000_000), fraction) : (1_000_000, fraction / 1000)
        let (nanoseconds, overflow) = whole.multipliedReportingOverflow(by: unit)
        let (total, sumOverflow) = nanoseconds.addingReportingOverflow(scaled)
        guard !overflow, !sumOverflow else { return nil }
        return Timestamp(nanosecondsSince1970: total)
    }

    private static func withTCopy(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Timestamp?) -> Timestamp? {
        guard bytes.count <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
            _ = buffer.initialize(fromContentsOf: bytes)
            buffer[10] = UInt8(ascii: "T")
            return body(UnsafeBufferPointer(buffer))
        }
    }
}
