import WaymarkCore

extension SplitMix64 {
    /// A uniform `Double` in `range` from the top 53 bits of one draw: the same sequence on
    /// every platform and standard-library version.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
        return range.lowerBound + (range.upperBound - range.lowerBound) * unit
    }
}
