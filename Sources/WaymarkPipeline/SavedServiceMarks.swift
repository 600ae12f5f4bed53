import WaymarkCore
import WaymarkServices

/// What a restarted device pipeline resumes its subscribers' services from (docs/semantics.md
/// §2.5): each subscriber's saved marks, and the device's stored fixes since the earliest moment
/// any of them needs (`[ServiceMark].replayFrom`), or else its last stored fix, in time order. Subscribers present when the
/// pipeline starts take theirs; the first input ends the resumption (one added later is new).
public struct SavedServiceMarks: Sendable, Equatable {
    public var marks: [SubscriberID: [ServiceMark]]
    public var fixes: [Fix]

    public init(marks: [SubscriberID: [ServiceMark]] = [:], fixes: [Fix] = []) {
        self.marks = marks
        self.fixes = fixes
    }

    /// The moment from which stored fixes are needed, nil when none are.
    public var replayFrom: Timestamp? { marks.values.compactMap(\.replayFrom).min() }
}
