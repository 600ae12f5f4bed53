#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal numbers from bytes, without making Strings, with the same result as
/// `Double(String)` (correctly rounded).
///
/// The grammar is xsd:decimal with an optional exponent: `[+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)?`.
/// Numbers whose significant digits fit in 2^53 with a decimal exponent within ±22 (every
/// GPX coordinate written with ≤ 15 significant digits) take Clinger's fast path: the digits
/// and the power of ten are both exact doubles, so one IEEE multiplication or division is
/// correctly rounded. Longer mantissas (Garmin writes 30-digit coordinates) take
/// ``EiselLemire``; what it leaves undecided, and numbers with an exponent, go to `strtod` on a
/// stack copy.
package enum DecimalParser {
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = bytes.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        var truncated = false
        while i < n, bytes[i] &- 0x30 < 10 {
            let d = UInt64(bytes[i] &- 0x30)
            if mantissa != 0 || d != 0 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ d
                    significant += 1
                } else {
                    exponent += 1
                    truncated = true
                }
            }
            digits += 1
            i += 1
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, bytes[i] &- 0x30 < 10 {
                let d = UInt64(bytes[i] &- 0x30)
                if mantissa != 0 || d != 0 {
                    if significant < 19 {
                        mantissa = mantissa &* 10 &+ d
                        significant += 1
                        exponent -= 1
                    } else {
                        truncated = true
                    }
                } else {
                    exponent -= 1
                }
                digits += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        var hasExponent = false
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            hasExponent = true
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let exponentStart = i
            while i < n, bytes[i] &- 0x30 < 10 { i += 1 }
            guard i > exponentStart else { return nil }
        }
        guard i == n else { return nil }

        if !hasExponent, !truncated, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= powerOfTen(-exponent)
            } else if exponent > 0 {
                value *= powerOfTen(exponent)
            }
            return negative ? -value : value
        }
        if !hasExponent, let value = EiselLemire.value(mantissa, exponent: exponent, negative: negative) {
            // With digits dropped the number lies between these two mantissas.
            if !truncated || EiselLemire.value(mantissa + 1, exponent: exponent, negative: negative) == value {
                return value
            }
        }
        return parseSlowly(bytes)
    }

    /// `strtod` on a NUL-terminated stack copy; the grammar has been checked already.
    private static func parseSlowly(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) {
            copy -> Double? in
            let start = copy.baseAddress!
            UnsafeMutableRawPointer(start).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            start[bytes.count] = 0
            var stop: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(start, &stop)
            // A process that set a locale with a decimal comma stops at '.'; fall back to the
            // locale-independent standard library rather than return a wrong number.
            guard stop == start + bytes.count else {
                return Double(String(decoding: bytes, as: UTF8.self))
            }
            return value
        }
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// 10^0 … 10^22, the powers of ten a double holds exactly.
    private static let powersOfTen: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double) = (
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    )

    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        withUnsafeBytes(of: powersOfTen) { $0.load(fromByteOffset: exponent * 8, as: Double.self) }
    }

    /// A non-negative integer (xsd:nonNegativeInteger, e.g. `<sat>`), at most 18 digits.
    static func parseCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        if !bytes.isEmpty, bytes[0] == UInt8(ascii: "+") { i = 1 }
        guard i < bytes.count, bytes.count - i <= 18 else { return nil }
        var value = 0
        while i < bytes.count {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
            i += 1
        }
        return value
    }
}
