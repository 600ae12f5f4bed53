/// Anything that produces fixes in time order: a GPX file, gpsd, a test's list.
///
/// The pipeline pulls from a source one fix at a time, so a source can stream a file of any
/// size in constant memory.
public protocol FixSource {
    /// The next fix, or `nil` when the source is exhausted. Throws a located error on bad input.
    mutating func next() throws -> Fix?
}

/// A source over fixes already in memory, for tests and generated data.
public struct ArrayFixSource: FixSource, Sendable {
    private let fixes: [Fix]
    private var index = 0

    public init(_ fixes: [Fix]) { self.fixes = fixes }

    public mutating func next() -> Fix? {
        guard index < fixes.count else { return nil }
        defer { index += 1 }
        return fixes[index]
    }
}
