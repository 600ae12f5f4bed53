/// Correctly rounded `w × 10^q` for a 64-bit `w`, by Eisel and Lemire's algorithm ("Number
/// Parsing at a Gigabyte per Second", 2021): one or two 64×128-bit multiplications by a
/// truncated power of ten, and `nil` in the rare cases where the truncation leaves the rounding
/// undecided (the caller then asks `strtod`).
///
/// It is what lets ``DecimalParser`` read Garmin's 30-digit coordinates without `strtod`: the
/// first 19 digits give `w`, and when `w × 10^q` and `(w + 1) × 10^q` round to the same double,
/// every longer decimal between them does too.
enum EiselLemire {
    static let smallestExponent = -342
    static let largestExponent = 308

    static func value(_ mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard exponent >= smallestExponent, exponent <= largestExponent else { return nil }
        let leadingZeros = mantissa.leadingZeroBitCount
        let w = mantissa << leadingZeros
        // floor(q × log2(10)) + 64 + the double's bias, as the table normalises its powers.
        var binaryExponent = UInt64(bitPattern: Int64((217_706 &* exponent) >> 16 &+ 64 &+ 1023))
            &- UInt64(leadingZeros)
        let power = powersOfTen.power(exponent)

        var (high, low) = w.multipliedFullWidth(by: power.high)
        if high & 0x1FF == 0x1FF && low &+ w < w {
            // The low bits may carry into the kept ones: include the power's lower half.
            let (carryHigh, carryLow) = w.multipliedFullWidth(by: power.low)
            var mergedHigh = high
            let mergedLow = low &+ carryHigh
            if mergedLow < low { mergedHigh &+= 1 }
            if mergedHigh & 0x1FF == 0x1FF && mergedLow &+ 1 == 0 && carryLow &+ w < w { return nil }
            (high, low) = (mergedHigh, mergedLow)
        }

        let top = high >> 63
        var significand = high >> (top + 9)
        binaryExponent &-= 1 ^ top
        // Exactly halfway between two doubles as far as these bits can tell.
        if low == 0 && high & 0x1FF == 0 && significand & 3 == 1 { return nil }
        significand &+= significand & 1
        significand >>= 1
        if significand >> 53 > 0 {
            significand >>= 1
            binaryExponent &+= 1
        }
        // Subnormal, zero, infinite: not this algorithm's business.
        if binaryExponent &- 1 >= 0x7FF - 1 { return nil }
        var bits = binaryExponent << 52 | significand & 0x000F_FFFF_FFFF_FFFF
        if negative { bits |= 1 << 63 }
        return Double(bitPattern: bits)
    }

    static let powersOfTen = PowersOfTen(from: smallestExponent, through: largestExponent)
}

/// 10^q for every q in a range as 128-bit mantissas, normalised (top bit set) and truncated,
/// computed once with exact integer arithmetic rather than written out as a table.
struct PowersOfTen: Sendable {
    private let halves: [UInt64]
    private let smallest: Int

    init(from smallest: Int, through largest: Int) {
        self.smallest = smallest
        var halves = [UInt64](repeating: 0, count: (largest - smallest + 1) * 2)
        func store(_ q: Int, _ number: BigNatural) {
            let (high, low) = number.top128Bits()
            halves[(q - smallest) * 2] = high
            halves[(q - smallest) * 2 + 1] = low
        }
        // 10^q = 5^q × 2^q, and the power of two only moves the binary point.
        var power = BigNatural(1)
        for q in 0...max(0, largest) {
            store(q, power)
            power.multiply(by: 5)
        }
        // 10^-p has the mantissa of 2^N / 5^p; floor(floor(x / 5) / 5) = floor(x / 25), so
        // repeated exact division by 5 truncates exactly once. N leaves ≥ 128 bits at 5^342.
        var reciprocal = BigNatural(powerOfTwo: 1_088)
        for p in 1...max(1, -smallest) {
            reciprocal.divide(by: 5)
            store(-p, reciprocal)
        }
        self.halves = halves
    }

    @inline(__always)
    func power(_ q: Int) -> (high: UInt64, low: UInt64) {
        halves.withUnsafeBufferPointer { ($0[(q - smallest) * 2], $0[(q - smallest) * 2 + 1]) }
    }
}

/// Just enough of an arbitrary-precision natural number to build ``PowersOfTen``.
private struct BigNatural {
    /// Little-endian 32-bit limbs.
    private var limbs: [UInt32]

    init(_ value: UInt32) { limbs = [value] }

    init(powerOfTwo exponent: Int) {
        limbs = [UInt32](repeating: 0, count: exponent / 32 + 1)
        limbs[exponent / 32] = 1 << UInt32(exponent % 32)
    }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for k in limbs.indices {
            let product = UInt64(limbs[k]) * UInt64(factor) + carry
            limbs[k] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
    }

    mutating func divide(by divisor: UInt32) {
        var remainder: UInt64 = 0
        for k in limbs.indices.reversed() {
            let dividend = remainder << 32 | UInt64(limbs[k])
            limbs[k] = UInt32(dividend / UInt64(divisor))
            remainder = dividend % UInt64(divisor)
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
    }

    /// The 128 bits from the highest set bit down, truncated (zero-filled when shorter).
    func top128Bits() -> (high: UInt64, low: UInt64) {
        let highestBit = (limbs.count - 1) * 32 + (31 - limbs[limbs.count - 1].leadingZeroBitCount)
        func bit(_ index: Int) -> UInt64 {
            guard index >= 0 else { return 0 }
            return UInt64(limbs[index / 32] >> UInt32(index % 32) & 1)
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for k in 0..<64 {
            high = high << 1 | bit(highestBit - k)
            low = low << 1 | bit(highestBit - 64 - k)
        }
        return (high, low)
    }
}
