import Testing
import WaymarkCore

@testable import WaymarkSources

/// The hand-written decimal parser must give exactly what `Double(String)` gives.
struct DecimalParserTests {
    static func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
    }

    @Test(arguments: [
        "0", "-0", "+1", "46.434981000", "13.748273", "-121.329866945743560791015625",
        "35.7804112695157527923583984375", "91.8000030517578125", "0.000000", ".5", "5.", "1e3", "-2.5E-3",
        "0.1", "0.2", "0.3", "123456789012345", "1234567890123456789", "9007199254740993", "0.000000000000000000001",
        "179.99999999999999", "89.999999999999999999", "1614.678000", "1e-400", "00012.5000",
    ])
    func agreesWithTheStandardLibrary(_ text: String) {
        #expect(Self.parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
    }

    @Test(arguments: ["", "-", ".", "abc", "1.2.3", "1e", "1e+", "0x10", "nan", "inf", "1,5", " 1", "1 ", "--1", "1e999"])
    func rejects(_ text: String) {
        #expect(Self.parse(text) == nil, "\(text)")
    }

    /// Random coordinates with 1–15 significant digits take the fast path; longer ones go to
    /// strtod. Either way every bit must match.
    @Test func randomCoordinatesMatchBitForBit() {
        var generator = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let integer = Int.random(in: -180...180, using: &generator)
            let fractionDigits = Int.random(in: 0...20, using: &generator)
            var text = String(integer)
            if fractionDigits > 0 {
                text += "." + String((0..<fractionDigits).map { _ in "0123456789".randomElement(using: &generator)! })
            }
            if Self.parse(text)?.bitPattern != Double(text)?.bitPattern { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Long mantissas at magnitudes from 10^-40 to 10^25: the fast path, Eisel–Lemire with
    /// the truncated-mantissa check, and strtod must together give every bit.
    @Test func longDecimalsMatchBitForBit() {
        var random = SplitMix64(seed: 2_026_1126)
        var mismatches: [String] = []
        for _ in 0..<100_000 {
            let integerDigits = Int.random(in: 0...25, using: &random)
            let zeros = integerDigits == 0 ? Int.random(in: 0...40, using: &random) : 0
            let fractionDigits = Int.random(in: 0...35, using: &random)
            func digits(_ n: Int) -> String {
                String((0..<n).map { _ in "0123456789".randomElement(using: &random)! })
            }
            var text = integerDigits == 0 ? "0" : String("123456789".randomElement(using: &random)!) + digits(integerDigits - 1)
            if zeros + fractionDigits > 0 { text += "." + String(repeating: "0", count: zeros) + digits(fractionDigits) }
            if Bool.random(using: &random) { text = "-" + text }
            if Self.parse(text)?.bitPattern != Double(text)?.bitPattern { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Every power of ten the table holds, with mantissas of every length: where Eisel–Lemire
    /// decides, it decides what strtod does.
    @Test func eiselLemireAgreesAcrossTheTable() {
        var random = SplitMix64(seed: 42)
        var mismatches: [String] = []
        var decided = 0
        for exponent in EiselLemire.smallestExponent...EiselLemire.largestExponent {
            for _ in 0..<40 {
                let mantissa = random.next() >> UInt64.random(in: 0...63, using: &random)
                guard let value = EiselLemire.value(mantissa, exponent: exponent, negative: false) else { continue }
                decided += 1
                if value.bitPattern != Double("\(mantissa)e\(exponent)")?.bitPattern {
                    mismatches.append("\(mantissa)e\(exponent)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(decided > 20_000)
    }

    @Test(arguments: [("0", 0), ("7", 7), ("+12", 12), ("123456789012345678", 123_456_789_012_345_678)])
    func counts(_ text: String, _ value: Int) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parseCount($0) } == value)
    }

    @Test(arguments: ["", "+", "-1", "1.0", "x", "1234567890123456789"])
    func rejectsCounts(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parseCount($0) } == nil)
    }
}
