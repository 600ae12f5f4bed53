extension Duration {
    /// The duration in seconds as a `Double` (attosecond components folded in).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
