import Foundation
import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkStore
import WaymarkTestSupport

/// Hysteresis must not lose real transitions (docs/semantics.md §3): on every timed shared track,
/// against every shared region file and circles along the track, each raw membership change
/// whose new side then holds for a minute and five fixes is in the monitor's state by then, each
/// reported crossing is stamped at a fix where the raw membership changed to its side, and
/// a region's reported enters and exits alternate (nothing reported twice).
@Suite struct TransitionCompletenessTests {
    static let settle = 60.0

    struct Finding: CustomStringConvertible {
        var track: String
        var region: String
        var what: String
        var description: String { "\(track) \(region): \(what)" }
    }

    static func check(track: String, regions: [Region], fixes: [Fix]) -> (findings: [Finding], stable: Int, reported: Int) {
        var monitor = RegionMonitor(regions: regions)
        var reported = [[RegionTransition]](repeating: [], count: regions.count)
        for fix in fixes {
            for transition in monitor.process(fix).transitions where !transition.crossed && transition.kind != .dwell {
                reported[Int(transition.regionIndex)].append(transition)
            }
        }
        return evaluate(track: track, regions: regions, fixes: fixes, reported: reported)
    }

    /// Raw membership per region over the whole track, straight from the index, checked
    /// against what the monitor reported.
    static func evaluate(
        track: String, regions: [Region], fixes: [Fix], reported: [[RegionTransition]]
    ) -> (findings: [Finding], stable: Int, reported: Int) {
        let index = RegionIndex(regions: regions)
        var findings: [Finding] = []
        var stableCount = 0
        var inside: [Int32] = []
        var raw = [[Bool]](repeating: [Bool](repeating: false, count: fixes.count), count: regions.count)
        for (i, fix) in fixes.enumerated() {
            index.containing(fix.coordinate, into: &inside)
            for r in inside { raw[Int(r)][i] = true }
        }
        for r in 0..<regions.count {
            let series = raw[r]
            let name = regions[r].identifier
            let events = reported[r]
            // Alternation, starting from the established state.
            var state = series.first ?? false
            for event in events {
                let entering = event.kind == .enter
                if entering == state { findings.append(Finding(track: track, region: name, what: "\(event.kind) reported twice at \(event.fix.time!.rfc3339)")) }
                state = entering
                // Stamped at a raw change to its side.
                guard let i = fixes.firstIndex(where: { $0.time == event.fix.time && $0.coordinate == event.fix.coordinate }),
                    i > 0, series[i] == entering, series[i - 1] != entering
                else {
                    findings.append(Finding(track: track, region: name, what: "\(event.kind) at \(event.fix.time!.rfc3339) is not at a raw crossing"))
                    continue
                }
            }
            // Every raw change that holds for a minute is in the confirmed state by then.
            for i in 1..<max(series.count, 1) where series[i] != series[i - 1] {
                let start = fixes[i].time!
                // A minute and five fixes: the settle rule counts evidence, not only seconds.
                guard let end = (i..<series.count).first(where: { fixes[$0].time!.seconds(since: start) >= settle && $0 - i + 1 >= 5 }),
                    (i...end).allSatisfy({ series[$0] == series[i] })
                else { continue }
                stableCount += 1
                let confirmedBy = events.last { $0.confirmedAt! <= fixes[end].time! }
                let stateThen = confirmedBy.map { $0.kind == .enter } ?? series[0]
                if stateThen != series[i] {
                    findings.append(Finding(track: track, region: name, what: "raw \(series[i] ? "enter" : "exit") at \(start.rfc3339) held a minute but was not reported by \(fixes[end].time!.rfc3339)"))
                }
            }
        }
        return (findings, stableCount, reported.reduce(0) { $0 + $1.count })
    }

    @Test(arguments: EngineAgreementTests.regionFiles.map(\.file) + ["circles along the track"])
    func everyTransitionThatHoldsAMinuteIsReportedOnce(regionFile: String) throws {
        var fileRegions: [Region] = []
        if regionFile.hasSuffix("json") {
            let idProperty = EngineAgreementTests.regionFiles.first { $0.file == regionFile }!.idProperty
            fileRegions = try GeoJSONRegionLoader.load(
                paths: [ProjectPaths.sharedData("geojson/" + regionFile).path], idProperty: idProperty,
                unnamedFeatures: .numberByIndex)
        }
        var stable = 0
        var reported = 0
        for track in try EngineAgreementTests.timedTracks() {
            let all = try EngineAgreementTests.fixes(of: track)
            // The monitor expects time order: keep fixes whose time moves forward (as the gate does).
            var fixes: [Fix] = []
            for fix in all where fix.time != nil && (fixes.last.map { fix.time! > $0.time! } ?? true) { fixes.append(fix) }
            guard fixes.count > 1 else { continue }
            let regions = fileRegions.isEmpty ? EngineAgreementTests.circles(along: fixes, count: 200, seed: 11) : fileRegions
            let result = Self.check(track: track.lastPathComponent, regions: regions, fixes: fixes)
            #expect(result.findings.isEmpty, "\(result.findings.prefix(10).map(\.description).joined(separator: "\n"))")
            stable += result.stable
            reported += result.reported
        }
        if regionFile.contains("circles") || regionFile.contains("parks") { #expect(stable > 0 && reported > 0) }
    }
}
