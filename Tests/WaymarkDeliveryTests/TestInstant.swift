/// An instant of the tests' own: a duration since an arbitrary start, so the state machines run
/// on made-up times without a clock or a sleep.
struct TestInstant: InstantProtocol, Sendable {
    var offset: Duration

    static func seconds(_ seconds: Double) -> TestInstant { TestInstant(offset: .milliseconds(Int(seconds * 1000))) }

    func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }

    func duration(to other: TestInstant) -> Duration { other.offset - offset }

    static func < (lhs: TestInstant, rhs: TestInstant) -> Bool { lhs.offset < rhs.offset }
}

extension TestInstant {
    static func + (instant: TestInstant, duration: Duration) -> TestInstant { instant.advanced(by: duration) }
}
