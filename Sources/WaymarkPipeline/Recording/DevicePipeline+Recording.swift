import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// When and how a live input reached the runtime that records it.
public struct Arrival: Sendable, Equatable {
    /// The moment it arrived (the daemon's clock; a fleet worker uses the moment JetStream stored it).
    public var time: Timestamp
    /// Whether a fix's own time is judged against `time`: a device's fix over the network is, and
    /// one from the future is not recorded (stored, it would be the device's latest fix for
    /// ever). A local receiver's is not: its time is the better clock (a board without a
    /// real-time clock starts in the past until NTP has synchronised it), nor a replayed recording's.
    public var judgesFuture: Bool

    public init(time: Timestamp, judgesFuture: Bool) {
        self.time = time
        self.judgesFuture = judgesFuture
    }

    /// Whether the history keeps `fix` (stamped already): a position on Earth, and not from the
    /// future when its arrival is judged. A runtime storing a redelivered fix again asks this
    /// without running it.
    public func keeps(_ fix: Fix) -> Bool {
        fix.coordinate.isValid && !(judgesFuture && ValidationGate.isFromFuture(fix.time ?? time, receivedAt: time))
    }
}

/// What one recorded input produced: the step, the fix as the history keeps it, and every event
/// in order (the rules' own events, fix lost and regained, among them).
public struct RecordedStep: Sendable, Equatable {
    /// The input's own time (a fix's after stamping), when it has one: states are saved at it.
    public var time: Timestamp?
    /// The fix to store; nil when the input was not a fix or the fix is not recorded.
    public var fix: Fix?
    /// Why the fix is not recorded, or why the region engine did not see it.
    public var drop: DropReason?
    public var events: [LocationEvent]
    public var states: [SavedRegionState]
    public var regionsEstablished: EstablishedRegions?
    public var marks: [SubscriberID: [ServiceMark]]

    init(_ step: DevicePipeline.Step, input: PipelineInput, fix: Fix?) {
        self.init(step, time: input.time, fix: fix)
    }

    init(_ step: DevicePipeline.Step, time: Timestamp?, fix: Fix? = nil) {
        self.time = time
        self.fix = fix
        drop = step.regionDrop
        events = step.events
        states = step.states
        regionsEstablished = step.regionsEstablished
        marks = step.marks
    }

    /// What the history keeps of the events, in order (`LocationEvent.recording`).
    public var recordings: [Recording] { events.map(\.recording).filter { $0 != .none } }
}

extension DevicePipeline {
    /// A live fix through the rules every runtime applies before it is recorded
    /// (docs/semantics.md §1.7, §2.1), then through the pipeline:
    /// - a fix without a time (a receiver without a clock, GGA-only NMEA) is stamped on arrival;
    /// - a position that is not on Earth is neither run nor recorded (`invalidCoordinate`);
    /// - a fix from the future (`Arrival.judgesFuture`) is run, so the gates count it, but not recorded;
    /// - the first fix after a gap is a `fixRegained` accessory event, after the fix's own events.
    ///
    /// Everything else is recorded as it came, repeated and out-of-order times included: the
    /// history is the raw record, and the gates keep such fixes from the region engine.
    public mutating func record(fix received: Fix, arrival: Arrival) -> RecordedStep {
        var fix = received
        if fix.time == nil { fix.time = arrival.time }
        guard fix.coordinate.isValid else {
            var step = Step()
            step.regionDrop = .invalidCoordinate
            return RecordedStep(step, input: .fix(fix), fix: nil)
        }
        let step = handle(.fix(fix), receivedAt: arrival.judgesFuture ? arrival.time : nil)
        var recorded = RecordedStep(step, input: .fix(fix), fix: arrival.keeps(fix) ? fix : nil)
        if fixPresence.see(true) == true { recorded.events.append(.accessory(AccessoryEvent(time: fix.time!, change: .fixRegained))) }
        return recorded
    }

    /// No position at `time`: a gap, then `fixLost` if there was a fix before it.
    public mutating func record(gap time: Timestamp, reason: String) -> RecordedStep {
        let input = PipelineInput.gap(time: time, reason: reason)
        var recorded = RecordedStep(handle(input), input: input, fix: nil)
        if fixPresence.see(false) == false { recorded.events.append(.accessory(AccessoryEvent(time: time, change: .fixLost))) }
        return recorded
    }

    /// Any other input (an advertisement, a tick, a gap the source has no fix state for) as it is.
    public mutating func record(_ input: PipelineInput) -> RecordedStep {
        RecordedStep(handle(input), input: input, fix: nil)
    }
}
