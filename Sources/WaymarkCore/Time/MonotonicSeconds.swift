/// Seconds on the continuous (monotonic) clock since this process first asked: for timers that
/// compare moments as plain numbers, such as the outputs' position thinning.
public enum MonotonicSeconds {
    public static func now() -> Double { (ContinuousClock.now - epoch).inSeconds }

    private static let epoch = ContinuousClock.now
}
