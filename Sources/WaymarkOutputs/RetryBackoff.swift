/// When to try a failed delivery again: exponential from `base`, capped at `cap`, with "equal
/// jitter" (half fixed, half random) so receivers coming back are not hit by every sender at
/// once, and a failing receiver is still retried within `cap`.
public struct RetryBackoff: Sendable, Equatable {
    public var base: Double
    public var cap: Double

    public init(base: Double = 1, cap: Double = 300) {
        self.base = base
        self.cap = cap
    }

    /// Seconds to wait after the `failures`-th consecutive failure (1 for the first); `random`
    /// in 0..<1.
    public func delay(afterFailures failures: Int, random: Double) -> Double {
        let exponent = Double(min(max(failures - 1, 0), 30))
        let ceiling = min(cap, base * pow2(exponent))
        return ceiling / 2 + ceiling / 2 * random
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
