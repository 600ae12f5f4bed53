import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkSimulation

/// A recorded track replayed twice through the same pipeline, as recorded and with noise added
/// (BENCHMARKS.md "Region events on noisy fixes"): every crossing the clean replay holds must
/// still be reported from the noisy fixes, near the same time, and nothing else.
public struct RecordedNoiseScore: Sendable, Equatable, CustomStringConvertible {
    /// Crossings of the clean replay whose new side held at least `held` seconds and got `depth`
    /// metres past the edge.
    public var heldCrossings = 0
    /// Of those, how many the noisy replay missed (no same transition within `tolerance`).
    public var missed: [String] = []
    /// Noisy transitions with no clean one of the same region and kind within `tolerance`.
    public var spurious: [String] = []

    public var description: String {
        "held crossings \(heldCrossings), missed \(missed.count), spurious \(spurious.count)"
            + (missed.isEmpty ? "" : " missed: \(missed.prefix(5))") + (spurious.isEmpty ? "" : " spurious: \(spurious.prefix(5))")
    }

    /// - Parameters:
    ///   - held: seconds a crossing's new side must hold on the clean replay to be owed.
    ///   - depth: metres past the edge some fix of the held crossing must get on the clean track:
    ///     a crossing that stays within the noise of the edge cannot be told from a near miss.
    ///   - tolerance: seconds between a clean and a noisy stamp still taken for the same crossing.
    public init(
        track: [Fix], regions: [Region], noise: FixNoise, held: Double = 30, depth: Double = 30, tolerance: Double = 60,
        settings: PipelineSettings = .standard
    ) {
        let index = RegionIndex(regions: regions)
        let clean = Self.transitions(track, regions, settings)
        let noisy = Self.transitions(noise.apply(to: track), regions, settings)
        func near(_ t: RegionTransition, in list: [RegionTransition]) -> Bool {
            list.contains { other in
                other.identifier == t.identifier && other.kind == t.kind
                    && abs((other.fix.time ?? .init(nanosecondsSince1970: 0)).seconds(since: t.fix.time ?? .init(nanosecondsSince1970: 0))) <= tolerance
            }
        }
        for (i, t) in clean.enumerated() where !t.crossed {
            let next = clean[(i + 1)...].first { $0.identifier == t.identifier }
            let end = next?.fix.time ?? track.last?.time
            guard let start = t.fix.time, let end, end.seconds(since: start) >= held else { continue }
            let r = Int(t.regionIndex)
            let deep = track.contains { fix in
                guard let time = fix.time, time >= start, time < end else { return false }
                var inside: [Int32] = []
                index.containing(fix.coordinate, into: &inside)
                return inside.contains(Int32(r)) == (t.kind == .enter)
                    && index.distanceToBoundary(ofRegionAt: r, from: fix.coordinate, limit: depth) >= depth
            }
            guard deep else { continue }
            heldCrossings += 1
            if !near(t, in: noisy) { missed.append("\(t.kind.rawValue) \(t.identifier) \(start.rfc3339)") }
        }
        spurious = noisy.filter { !near($0, in: clean) }.map { "\($0.kind.rawValue) \($0.identifier) \($0.fix.time?.rfc3339 ?? "-")" }
    }

    /// The enter and exit transitions a pipeline reports for `fixes`.
    static func transitions(_ fixes: [Fix], _ regions: [Region], _ settings: PipelineSettings) -> [RegionTransition] {
        var pipeline = DevicePipeline(regions: regions, settings: settings)
        var found: [RegionTransition] = []
        for fix in fixes {
            for case .region(let transition) in pipeline.handle(.fix(fix)).events where transition.kind != .dwell {
                found.append(transition)
            }
        }
        return found
    }
}
