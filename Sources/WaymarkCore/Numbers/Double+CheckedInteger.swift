extension Double {
    /// This number rounded by `rule` as an `Int`, or nil when it is not finite or the result
    /// does not fit. `Int(x.rounded())` traps on those instead, and a stored fix can hold any
    /// Double: databases written before the decoders bounded their numbers (issue 48) keep
    /// accuracies of 1e308, and a trap in an output would crash the daemon on every restart.
    public func roundedInteger(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        guard isFinite else { return nil }
        return Int(exactly: rounded(rule))
    }

    /// This number rounded by `rule` and clamped into `range`; nil when it is not a number.
    /// For sizes and counts derived from data (pixels, columns, tile indices), where a huge
    /// value should saturate rather than trap.
    public func roundedInteger(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero, clampedTo range: ClosedRange<Int>) -> Int? {
        guard !isNaN else { return nil }
        let whole = rounded(rule)
        if whole <= Double(range.lowerBound) { return range.lowerBound }
        if whole >= Double(range.upperBound) { return range.upperBound }
        return Int(whole)
    }
}
