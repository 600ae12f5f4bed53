/// Round numbers for scale bars and axes: 1, 2 or 5 times a power of ten.
enum NiceNumber {
    /// The largest 1/2/5 × 10ⁿ not above `value` (value > 0); 1 for a value that is not a
    /// positive finite number (at infinity `power * 10 <= value` would hold for ever).
    static func atMost(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 1 }
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        while power > value, power / 10 > 0 { power /= 10 }
        for factor in [5.0, 2.0] where factor * power <= value { return factor * power }
        return power
    }

    /// A step for about `count` ticks across `span`.
    static func step(span: Double, count: Int) -> Double {
        atMost(max(span, 1e-9) / Double(max(1, count)) * 1.5)
    }
}
