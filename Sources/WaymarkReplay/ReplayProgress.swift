import WaymarkCore

/// Reports how far a replay has got, at most a few times a second (for a terminal's stderr).
public struct ReplayProgress: Sendable {
    private let report: @Sendable (String) -> Void
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant?

    public init(report: @escaping @Sendable (String) -> Void) { self.report = report }

    mutating func update(fixes: Int, time: Timestamp?) {
        let now = clock.now
        if let last, now - last < .milliseconds(250) { return }
        last = now
        report("replay: \(fixes) fixes" + (time.map { ", at \($0.rfc3339)" } ?? ""))
    }
}
