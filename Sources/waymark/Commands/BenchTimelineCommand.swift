import ArgumentParser
import Foundation
import Logging
import WaymarkCore
import WaymarkStore
import WaymarkTimelineJob

extension BenchCommand {
    struct Timeline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Seconds `waymark timeline` takes over a month of 1 Hz history.",
            discussion: """
                Writes --days simulated days of one device at one fix a second (home, a ride to \
                work, a walk to lunch and back, a drive to a shop and home; a few metres of wander, \
                outliers) into a fresh SpatiaLite file, then times the first timeline over all of \
                it (every stay and trip computed and stored), the same again (nothing new), one \
                day's timeline and, after the third day's fixes come again half a second later (as an \
                import of an older file would add them), the recomputation. Prints seconds as JSON.
                """)

        @Option(help: "Simulated days (86,400 fixes each).")
        var days = 30

        @Option(name: .customLong("repeat"), help: "Times the day query runs; the median is reported.")
        var repetitions = 5

        @Option(help: "Directory for the database (a new file in it; default: a temporary directory).")
        var directory: String?

        func validate() throws {
            guard days >= 2, repetitions >= 1 else { throw ValidationError("--days must be at least 2, --repeat at least 1") }
        }

        func run() async throws {
            let database = "\(directory ?? NSTemporaryDirectory())/waymark-bench-timeline-\(getpid()).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) } }
            let logger = CommandLogging.logger("waymark-bench")
            let store = try await WaymarkStore.open(path: database, logger: logger)
            let start = Timestamp(nanosecondsSince1970: 1_780_272_000_000_000_000)  // 2026-06-01T00:00:00Z
            let days = days
            let written = ContinuousClock.now
            let fixes = try await store.offPool { store in
                var month = SimulatedMonth(start: start)
                var count = 0
                for day in 0..<days {
                    let fixes = month.day(day)
                    count += fixes.count
                    for chunk in stride(from: 0, to: fixes.count, by: 20_000) {
                        try store.recordFixes(Array(fixes[chunk..<min(chunk + 20_000, fixes.count)]), source: "bench", device: "phone")
                    }
                }
                return count
            }
            let buildSeconds = Self.seconds(since: written)
            let job = TimelineJob(store: store, places: nil, logger: logger)
            let end = start.adding(seconds: Double(days) * 86_400)

            var clock = ContinuousClock.now
            let whole = try await job.timeline(device: "phone", from: start, to: end, timeZone: "UTC")
            let firstSeconds = Self.seconds(since: clock)
            clock = ContinuousClock.now
            let again = try await job.timeline(device: "phone", from: start, to: end, timeZone: "UTC")
            let againSeconds = Self.seconds(since: clock)

            var daySeconds: [Double] = []
            var dayEntries = 0
            let middle = try TimelineDay(String(Timestamp(nanosecondsSince1970: start.nanosecondsSince1970 + Int64(days / 2) * 86_400_000_000_000).rfc3339.prefix(10)))
            for _ in 0..<repetitions {
                clock = ContinuousClock.now
                let range = try await job.day(device: "phone", middle, timeZone: "Europe/Berlin")
                dayEntries = try await job.timeline(device: "phone", from: range.from, to: range.to, timeZone: range.timeZone).entries.count
                daySeconds.append(Self.seconds(since: clock))
            }

            // An import of an older day: the third day's fixes again, half a second later.
            let old = (from: start.adding(seconds: 2 * 86_400), to: start.adding(seconds: 3 * 86_400))
            try await store.offPool { store in
                let fixes = try store.fixes(device: "phone", from: old.from, to: old.to).map { fix in
                    var later = fix
                    later.time = fix.time?.adding(seconds: 0.5)
                    return later
                }
                try store.recordFixes(fixes, source: "bench-import", device: "phone")
            }
            clock = ContinuousClock.now
            let recomputed = try await job.timeline(device: "phone", from: start, to: end, timeZone: "UTC")
            let recomputeSeconds = Self.seconds(since: clock)

            var json = JSONObjectWriter()
            json.add("benchmark", "timeline")
            json.add("fixes", fixes)
            json.add("days", days)
            json.add("entries", whole.entries.count)
            json.add("stays", whole.entries.filter { if case .stay = $0 { true } else { false } }.count)
            json.add("same_again", again == whole)
            json.add("build_seconds", (buildSeconds * 10).rounded() / 10)
            json.add("first_seconds", (firstSeconds * 100).rounded() / 100)
            json.add("again_seconds", (againSeconds * 1000).rounded() / 1000)
            json.add("day_entries", dayEntries)
            json.add("day_median_seconds", (daySeconds.sorted()[daySeconds.count / 2] * 1000).rounded() / 1000)
            json.add("recompute_seconds", (recomputeSeconds * 100).rounded() / 100)
            json.add("recomputed_entries", recomputed.entries.count)
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
        }

        private static func seconds(since start: ContinuousClock.Instant) -> Double {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
    }
}

/// A month of a phone at one fix a second: each day home, a ride to work, a walk to lunch and
/// back, a drive to a shop, a drive home. Stays wander a few metres (one fix in 500 is 1–3 km
/// off); moving fixes a metre or two. Seeded.
struct SimulatedMonth {
    static let home = Coordinate(latitude: 52.52, longitude: 13.405)
    let start: Timestamp
    private var random = SplitMix64(seed: 41)

    init(start: Timestamp) { self.start = start }

    /// Day `index`'s 86,400 fixes.
    mutating func day(_ index: Int) -> [Fix] {
        let office = Geodesic.destination(from: Self.home, azimuth: 120, distance: 6_000)
        let lunch = Geodesic.destination(from: office, azimuth: 30, distance: 800)
        let shop = Geodesic.destination(from: office, azimuth: 250, distance: 10_000)
        // (until second of the day, from, to): a stay when from == to.
        let plan: [(Double, Coordinate, Coordinate)] = [
            (27_000, Self.home, Self.home), (28_200, Self.home, office), (43_200, office, office), (43_815, office, lunch),
            (46_500, lunch, lunch), (47_115, lunch, office), (63_000, office, office), (63_900, office, shop),
            (65_700, shop, shop), (66_900, shop, Self.home), (86_400, Self.home, Self.home),
        ]
        var fixes: [Fix] = []
        fixes.reserveCapacity(86_400)
        var legStart = 0.0
        let dayStart = start.adding(seconds: Double(index) * 86_400)
        for (until, from, to) in plan {
            let (length, azimuth, _) = Geodesic.inverse(from, to)
            for second in Int(legStart)..<Int(until) {
                let along = (Double(second) - legStart) / (until - legStart)
                var point = length > 0 ? Geodesic.destination(from: from, azimuth: azimuth, distance: length * along) : from
                let outlier = UInt64.random(in: 0..<500, using: &random) == 0
                let wander = outlier ? Double.random(in: 1_000...3_000, using: &random) : Double.random(in: 0...(length > 0 ? 2 : 12), using: &random)
                point = Geodesic.destination(from: point, azimuth: Double.random(in: 0..<360, using: &random), distance: wander)
                fixes.append(Fix(time: dayStart.adding(seconds: Double(second)), coordinate: point, horizontalAccuracy: 8))
            }
            legStart = until
        }
        return fixes
    }
}
