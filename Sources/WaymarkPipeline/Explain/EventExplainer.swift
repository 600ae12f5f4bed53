import WaymarkCore
import WaymarkRegions

/// Explains a stored region event by recomputing it (docs/explain.md): the region is restored
/// to the state it had when the window of fixes begins, the device's stored fixes from there to
/// after the event go through a `DevicePipeline` built as the daemon builds its own, and the
/// transition the pipeline reports for the same region, kind and stamped time is the answer.
///
/// It states no rule of its own: the rule, `estimated` and the confirmation come from the
/// pipeline's `RegionTransition`; the explainer only reads distances to the edge from the
/// region index. Whatever the engine's rules become, the explanation follows them. When the
/// recomputation does not reproduce the event, the explanation says so and claims no reason.
///
/// Pure: the caller reads the event, the regions and the fixes (`window`) from its store.
public enum EventExplainer {
    /// The fixes to read for `event`: from the warm-up before its stamped time (10 minutes, or
    /// the configuration's crossing gap if longer, so an inferred crossing's first sparse fix is
    /// in) to a little after its confirmation. Half-open `[from, to)`.
    public static func window(
        for event: EventExplanation.Subject, configuration: RegionMonitor.Configuration
    ) -> (from: Timestamp, to: Timestamp) {
        let from = event.time.adding(seconds: -max(EventExplanation.warmUp, configuration.maximumCrossingGap))
        let to = (event.confirmedAt ?? event.time).adding(seconds: EventExplanation.tail)
        return (from, to)
    }

    /// A stored transition of the region before the window: what its state was when the window
    /// began.
    public struct Earlier: Sendable, Equatable {
        public var kind: RegionTransition.Kind
        /// Its stamped time.
        public var time: Timestamp
        /// An inferred crossing (the region stayed outside).
        public var crossed: Bool

        public init(kind: RegionTransition.Kind, time: Timestamp, crossed: Bool) {
            self.kind = kind
            self.time = time
            self.crossed = crossed
        }
    }

    /// The region's state when the window begins: the side its latest enter or exit confirmed
    /// by then left it on (`latest`; an inferred crossing leaves it outside), from that
    /// transition's time, with `dwelled` saying whether that stay had its dwell; with no such
    /// transition stored, the side the event left (outside before an entry or an inferred
    /// crossing, inside before an exit or a dwell), from an unknown time.
    public static func state(
        of event: EventExplanation.Subject, crossed: Bool, latest: Earlier?, dwelled: Bool
    ) -> SavedRegionState {
        guard let latest else {
            let inside = !crossed && event.transition != .enter
            return SavedRegionState(identifier: event.region, inside: inside, since: nil, dwelled: event.transition != .dwell)
        }
        let inside = latest.kind == .enter && !latest.crossed
        return SavedRegionState(identifier: event.region, inside: inside, since: latest.time, dwelled: dwelled)
    }

    /// Recomputes `event` from `fixes` (the device's stored fixes in `window`, in the order they
    /// were recorded).
    ///
    /// - Parameters:
    ///   - monitors: the monitors the daemon builds for its regions and region configuration.
    ///   - options: the region's options (its delays).
    ///   - before: the region's state when the window begins (`state(of:crossed:latest:dwelled:)`).
    ///   - window: the range `fixes` were read from.
    ///   - reported: the transitions the device reported itself for the region in the window
    ///     (`reportedRegion`), fed in time order among the fixes as the daemon took them
    ///     (`DevicePipeline.record(reported:)`): an event of rule `phone` is reproduced from them.
    public static func explain(
        _ event: EventExplanation.Subject, monitors: RegionMonitors, options: RegionOptions, before: SavedRegionState, fixes: [Fix],
        window: (from: Timestamp, to: Timestamp), reported: [EventRecord] = []
    ) -> EventExplanation {
        var explanation = EventExplanation(event: event, reproduced: false)
        explanation.window = window
        explanation.fixes = fixes.count
        let index = monitors.geographic.index
        guard let region = (0..<index.count).first(where: { index.identifier(at: $0) == event.region }) else {
            explanation.mismatch = "no region \"\(event.region)\" is stored now: the event cannot be recomputed"
            return explanation
        }
        explanation.startState = before.inside ? "inside" : "outside"
        explanation.margin = monitors.geographic.hysteresis(ofRegionAt: region)
        explanation.delay = delay(of: event.transition, options: options, configuration: monitors.geographic.configuration)
        var pipeline = DevicePipeline(monitors: monitors, savedStates: SavedRegionStates([before]))
        var readings: [EventExplanation.Reading] = []
        var inside: [Int32] = []
        var reports = reported.sorted { $0.time < $1.time }[...]
        func feedReports(through time: Timestamp?) {
            while let next = reports.first, time.map({ next.time <= $0 }) ?? true {
                reports.removeFirst()
                for case .region(let transition) in pipeline.record(reported: next).events where transition.identifier == event.region {
                    explanation.recomputed.append(transition)
                }
            }
        }
        for fix in fixes {
            if !reports.isEmpty, let time = fix.time { feedReports(through: time) }
            let step = pipeline.handle(.fix(fix))
            index.containing(fix.coordinate, into: &inside)
            readings.append(
                EventExplanation.Reading(
                    fix: fix, inside: inside.contains(Int32(region)),
                    edgeDistance: signed(index.distanceToBoundary(ofRegionAt: region, from: fix.coordinate), inside: inside.contains(Int32(region))),
                    dropped: step.regionDrop?.rawValue))
            for case .region(let transition) in step.events where transition.identifier == event.region {
                explanation.recomputed.append(transition)
            }
        }
        feedReports(through: nil)
        list(readings, around: event, into: &explanation)
        match(in: &explanation, readings: readings, fixes: fixes.count)
        return explanation
    }

    private static func signed(_ distance: Double, inside: Bool) -> Double { inside ? -distance : distance }

    private static func list(_ readings: [EventExplanation.Reading], around event: EventExplanation.Subject, into explanation: inout EventExplanation) {
        let split = readings.firstIndex { ($0.fix.time ?? event.time) >= event.time } ?? readings.endIndex
        explanation.before = Array(readings[..<split].suffix(EventExplanation.listedBefore))
        let later = readings[split...]
        explanation.after = Array(later.prefix(EventExplanation.listedAfter))
        explanation.omittedAfter = max(0, later.count - EventExplanation.listedAfter)
    }

    /// Finds the recomputed transition with the event's kind and stamped time, and says what
    /// differs when there is none or its confirmation is another.
    private static func match(in explanation: inout EventExplanation, readings: [EventExplanation.Reading], fixes: Int) {
        let event = explanation.event
        let candidates = explanation.recomputed.filter { transition in
            guard transition.kind == event.transition, let time = transition.fix.time else { return false }
            return abs(time.nanosecondsSince1970 - event.time.nanosecondsSince1970) <= 1_000
        }
        guard let found = candidates.min(by: { distance($0.confirmedAt, event.confirmedAt) < distance($1.confirmedAt, event.confirmedAt) }) else {
            let made = explanation.recomputed.map { "\($0.kind.rawValue) at \($0.fix.time?.rfc3339 ?? "no time")" }
            explanation.mismatch =
                "the recomputation from \(fixes) stored fixes made no \(event.transition.rawValue) of \"\(event.region)\" at "
                + event.time.rfc3339 + (made.isEmpty ? "; it made no transition of the region" : "; it made " + made.joined(separator: ", "))
            return
        }
        explanation.transition = found
        if let stored = event.confirmedAt, found.confirmedAt != stored {
            explanation.mismatch =
                "the recomputation confirmed it at \(found.confirmedAt?.rfc3339 ?? "no time"), the stored event at \(stored.rfc3339)"
        } else {
            explanation.reproduced = true
        }
        if found.crossed { explanation.path = path(of: found, readings: readings, recomputed: explanation.recomputed) }
    }

    private static func distance(_ a: Timestamp?, _ b: Timestamp?) -> Int64 {
        guard let a, let b else { return a == nil && b == nil ? 0 : .max }
        return abs(a.nanosecondsSince1970 - b.nanosecondsSince1970)
    }

    /// The seconds the new side had to hold, as `RegionOptions` documents its defaults; a dwell's
    /// loitering delay.
    private static func delay(
        of kind: RegionTransition.Kind, options: RegionOptions, configuration: RegionMonitor.Configuration
    ) -> Double? {
        switch kind {
        case .enter: options.enterDelay ?? options.confirmationTime ?? configuration.confirmationTime
        case .exit: options.exitDelay ?? options.confirmationTime ?? configuration.confirmationTime
        case .dwell: options.loiteringDelay
        }
    }

    /// The two sparse fixes around the crossing (the last admitted one before the stamped time,
    /// and the confirming one) and the interpolated points confirmed with it.
    private static func path(
        of transition: RegionTransition, readings: [EventExplanation.Reading], recomputed: [RegionTransition]
    ) -> EventExplanation.Path? {
        guard let time = transition.fix.time, let confirmed = transition.confirmedAt,
            let from = readings.last(where: { $0.dropped == nil && ($0.fix.time ?? time) < time }),
            let to = readings.first(where: { $0.dropped == nil && $0.fix.time == confirmed })
        else { return nil }
        let points = recomputed.filter { $0.crossed && $0.confirmedAt == confirmed }
        return EventExplanation.Path(from: from, to: to, points: points)
    }
}
