import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkSimulation

/// How the region engine did on a noise scenario (BENCHMARKS.md "Region events on noisy fixes"):
/// the fixes run through a `DevicePipeline`, the same value `waymark replay` and the daemon
/// drive, and its confirmed transitions are judged against where the device truly was.
public struct NoiseScore: Sendable, Equatable, CustomStringConvertible {
    /// Region transitions confirmed (enter and exit; the establishing fix is not one).
    public var transitions = 0
    /// Transitions confirmed during a rest once the state was already right: each is an event
    /// that should not have been.
    public var flips = 0
    /// Rests at whose end the state was right (inside the resting place's region, outside the
    /// others): a move is reported when the rest it leads to ends right.
    public var restsRight = 0
    public var rests = 0
    /// Fixes the region gate kept out (outliers faster than the activity bound, …).
    public var dropped = 0

    public var description: String {
        "transitions \(transitions), flips at rest \(flips), rests ending right \(restsRight)/\(rests), fixes dropped \(dropped)"
    }

    /// Runs `fixes` (the scenario's truth with noise) through a pipeline over the scenario's regions.
    public init(_ scenario: NoiseScenario, fixes: [Fix], settings: PipelineSettings = .standard) {
        var pipeline = DevicePipeline(regions: scenario.regions, settings: settings)
        var inside: Set<String> = []
        var restIndex = 0
        var settled = false
        func closeRests(before time: Timestamp) {
            while restIndex < scenario.rests.count, scenario.rests[restIndex].to <= time {
                let rest = scenario.rests[restIndex]
                rests += 1
                if inside == Set([rest.place].compactMap { $0 }) { restsRight += 1 }
                restIndex += 1
                settled = false
            }
        }
        for fix in fixes {
            if let time = fix.time { closeRests(before: time) }
            let step = pipeline.handle(.fix(fix))
            if step.regionDrop != nil { dropped += 1 }
            for event in step.events {
                switch event {
                case .state(_, let now): inside = Set(now)
                case .region(let transition) where transition.kind != .dwell:
                    transitions += 1
                    if settled { flips += 1 }
                    if transition.kind == .enter { inside.insert(transition.identifier) } else { inside.remove(transition.identifier) }
                default: break
                }
            }
            if restIndex < scenario.rests.count, let time = fix.time, time >= scenario.rests[restIndex].from {
                let expected = Set([scenario.rests[restIndex].place].compactMap { $0 })
                if inside == expected { settled = true }
            }
        }
        closeRests(before: Timestamp(nanosecondsSince1970: .max))
    }
}

extension NoiseScore {
    /// Scores of one scenario summed over seeds.
    public struct Totals: Sendable {
        public var runs = 0
        public var transitions = 0
        public var flips = 0
        public var restsRight = 0
        public var rests = 0
        /// Runs with a flip or a rest ending wrong.
        public var runsWrong = 0

        public init() {}

        public mutating func add(_ score: NoiseScore) {
            runs += 1
            transitions += score.transitions
            flips += score.flips
            restsRight += score.restsRight
            rests += score.rests
            if score.flips > 0 || score.restsRight < score.rests { runsWrong += 1 }
        }

        public func json(scenario: String, variant: String, seeds: Int) -> String {
            "{\"scenario\":\"\(scenario)\",\"variant\":\"\(variant)\",\"seeds\":\(seeds),\"transitions\":\(transitions),"
                + "\"flipsAtRest\":\(flips),\"restsEndingRight\":\(restsRight),\"rests\":\(rests),\"runsWrong\":\(runsWrong)}"
        }
    }
}
