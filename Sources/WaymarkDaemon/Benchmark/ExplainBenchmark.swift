import Foundation
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkStore

/// `waymark bench explain`: how long `WaymarkStore.explainEvent` takes in a long history
/// (docs/explain.md; issue 38 asks ≤ 50 ms in a history of a million fixes).
///
/// The history is one device walking through a 100 m circle and back, 400 m either side, at
/// 1 Hz (about 2.7 m/s: an entry and an exit every 5 minutes), run through the daemon's
/// pipeline so its events are the ones the engine makes, stored in a real SpatiaLite file, and
/// optionally other devices' fixes at the same times. Then events spread evenly over the history
/// are explained, each `repetitions` times; how many reproduced their event is counted.
public enum ExplainBenchmark {
    public struct Result: Sendable {
        public var fixes: Int
        public var events: Int
        /// Milliseconds of every explanation timed, in the order taken.
        public var milliseconds: [Double]
        /// Seconds spent building the history (excluded from the timings).
        public var buildSeconds: Double
        /// Fixes each explanation recomputed (the window's), the median.
        public var fixesPerExplanation: Int
        /// Explanations that reproduced their event, and what the others said.
        public var reproduced: Int
        public var mismatches: [String]

        public var median: Double { milliseconds.sorted()[milliseconds.count / 2] }
        public var maximum: Double { milliseconds.max() ?? 0 }
    }

    static let centre = Coordinate(latitude: 47.37, longitude: 8.54)
    static let start = Timestamp(secondsSince1970: 1_780_000_000)

    /// Builds the history in `store` (empty) and times explanations of `sampled` events.
    ///
    /// - Parameters:
    ///   - fixes: the walking device's fixes, one a second.
    ///   - otherDevices: devices whose fixes (one a second each, at the same times) share the
    ///     history's time index.
    ///   - settings: the pipeline settings the history is recorded and explained with.
    public static func run(
        store: WaymarkStore, fixes: Int, otherDevices: Int = 0, sampled: Int = 11, repetitions: Int = 5, settings: PipelineSettings = .standard
    ) throws -> Result {
        let clock = ContinuousClock()
        let built = clock.now
        let region = Region(identifier: "yard", shape: .circle(center: centre, radius: 100))
        try store.importRegions([region], replace: true)
        var pipeline = DevicePipeline(regions: [region], settings: settings)
        var ids: [Int64] = []
        var batch: [Fix] = []
        batch.reserveCapacity(10_000)
        for second in 0..<fixes {
            let fix = walker(at: second)
            batch.append(fix)
            for case .region(let transition) in pipeline.handle(.fix(fix)).events {
                try store.recordFixes(batch, source: "bench")
                batch.removeAll(keepingCapacity: true)
                let event = LocationEvent.region(transition)
                ids.append(
                    try store.recordEvent(
                        StoredEvent(
                            time: transition.fix.time!, kind: .region, region: transition.identifier, transition: transition.kind,
                            coordinate: transition.fix.coordinate, record: event.record)))
            }
            if batch.count == 10_000 {
                try store.recordFixes(batch, source: "bench")
                batch.removeAll(keepingCapacity: true)
            }
        }
        try store.recordFixes(batch, source: "bench")
        for device in 0..<otherDevices {
            for first in stride(from: 0, to: fixes, by: 10_000) {
                let fixes = (first..<min(fixes, first + 10_000)).map { walker(at: $0, offset: Double(device + 1) * 1_000) }
                try store.recordFixes(fixes, source: "bench", device: "other-\(device)")
            }
        }
        let buildSeconds = (clock.now - built).inSeconds
        guard !ids.isEmpty else { throw BenchmarkError("the history has no event to explain: give more --fixes") }
        var milliseconds: [Double] = []
        var windowFixes: [Int] = []
        var reproduced = 0
        var mismatches: [String] = []
        let picks = Set((0..<sampled).map { ids[min(ids.count - 1, $0 * ids.count / max(1, sampled - 1))] }).sorted()
        for id in picks {
            for _ in 0..<repetitions {
                let began = clock.now
                let explanation = try store.explainEvent(id: id, settings: settings)
                milliseconds.append((clock.now - began).inSeconds * 1_000)
                guard let explanation else { throw BenchmarkError("event \(id) is not in the history") }
                if explanation.reproduced == true { reproduced += 1 } else { mismatches.append(explanation.mismatch ?? "?") }
                windowFixes.append(explanation.fixes)
            }
        }
        return Result(
            fixes: fixes * (1 + otherDevices), events: ids.count, milliseconds: milliseconds, buildSeconds: buildSeconds,
            fixesPerExplanation: windowFixes.sorted()[windowFixes.count / 2], reproduced: reproduced,
            mismatches: Array(Set(mismatches)).sorted())
    }

    /// The walker's fix at `second`: back and forth along a line through the circle's centre,
    /// 400 m either side, 300 s each way; `offset` metres north for other devices.
    static func walker(at second: Int, offset: Double = 0) -> Fix {
        let phase = Double(second % 600)
        let east = phase < 300 ? -400 + phase * 800 / 300 : 400 - (phase - 300) * 800 / 300
        var coordinate = Geodesic.destination(from: centre, azimuth: east < 0 ? 270 : 90, distance: abs(east))
        if offset > 0 { coordinate = Geodesic.destination(from: coordinate, azimuth: 0, distance: offset) }
        return Fix(time: start.adding(seconds: Double(second)), coordinate: coordinate, horizontalAccuracy: 5)
    }
}
