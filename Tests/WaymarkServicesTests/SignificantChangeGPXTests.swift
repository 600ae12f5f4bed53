import Foundation
import Testing
import WaymarkCore
import WaymarkServices
import WaymarkTestSupport

/// The significant-change rule over every track in `../shared/data/gpx`, checked against an
/// independent implementation: gpxpy reads the files and geographiclib measures the distances.
/// The Python script also dumps the points it read, so the Swift side runs the same points
/// through `ValidationGate` and `SignificantChangeFilter` without depending on WaymarkSources.
@Suite("SignificantChangeFilter on GPX tracks")
struct SignificantChangeGPXTests {
    /// Per file: `F name`; each route then track point in order (the GPX 1.1 schema puts every
    /// `rte` before every `trk`) as `P lat lon ns` (`-` for no time); then each significant change
    /// as `E ns lat lon`, after skipping points with invalid coordinates, no time, or a time not
    /// after the previous kept point's.
    static let reference = #"""
        import datetime, math, os, sys
        import gpxpy
        from geographiclib.geodesic import Geodesic

        EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)

        def nanoseconds(t):
            if t is None:
                return None
            if t.tzinfo is None:
                t = t.replace(tzinfo=datetime.timezone.utc)
            return (t - EPOCH) // datetime.timedelta(microseconds=1) * 1000

        folder = sys.argv[1]
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".gpx"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                gpx = gpxpy.parse(f)
            points = [p for r in gpx.routes for p in r.points]
            points += [p for t in gpx.tracks for s in t.segments for p in s.points]
            print("F", name)
            last_kept = None
            last_significant = None
            events = []
            for p in points:
                ns = nanoseconds(p.time)
                print("P", repr(p.latitude), repr(p.longitude), "-" if ns is None else ns)
                lat, lon = p.latitude, p.longitude
                if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
                    continue
                if ns is None or (last_kept is not None and ns <= last_kept):
                    continue
                last_kept = ns
                if last_significant is not None:
                    t0, lat0, lon0 = last_significant
                    if (ns - t0) / 1e9 < 300:
                        continue
                    if Geodesic.WGS84.Inverse(lat0, lon0, lat, lon)["s12"] < 500:
                        continue
                last_significant = (ns, lat, lon)
                events.append(last_significant)
            for ns, lat, lon in events:
                print("E", ns, repr(lat), repr(lon))
        """#

    struct Track {
        var name: String
        var fixes: [Fix] = []
        var events: [(time: Timestamp, coordinate: Coordinate)] = []
    }

    static func tracks() async throws -> [Track] {
        let result = try await runPython(reference, [ProjectPaths.sharedData("gpx").path])
        guard result.status == 0 else { throw ReferenceFailed(message: result.stderr) }
        var tracks: [Track] = []
        for line in result.stdoutLines {
            let parts = line.split(separator: " ").map(String.init)
            switch parts.first {
            case "F": tracks.append(Track(name: parts.dropFirst().joined(separator: " ")))
            case "P":
                let time = Int64(parts[3]).map { Timestamp(nanosecondsSince1970: $0) }
                tracks[tracks.count - 1].fixes.append(
                    Fix(time: time, coordinate: Coordinate(latitude: Double(parts[1])!, longitude: Double(parts[2])!)))
            case "E":
                tracks[tracks.count - 1].events.append(
                    (Timestamp(nanosecondsSince1970: Int64(parts[1])!),
                     Coordinate(latitude: Double(parts[2])!, longitude: Double(parts[3])!)))
            default: throw ReferenceFailed(message: "unexpected line \(line)")
            }
        }
        return tracks
    }

    struct ReferenceFailed: Error { var message: String }

    @Test func matchesTheIndependentImplementation() async throws {
        let tracks = try await Self.tracks()
        #expect(tracks.count == (try ProjectPaths.sharedGPXFiles()).count)
        var timedTracks = 0
        for track in tracks {
            var gate = ValidationGate(maximumSpeed: .infinity)
            var filter = SignificantChangeFilter()
            var records: [LocationRecord] = []
            for fix in track.fixes where gate.admit(fix) == nil { records += filter.process(fix) }
            records += filter.finish()
            if !track.events.isEmpty { timedTracks += 1 }
            #expect(records.count == track.events.count, "\(track.name)")
            for (record, event) in zip(records, track.events) {
                #expect(record.kind == .significantChange)
                #expect(record.time == event.time, "\(track.name)")
                #expect(abs(record.coordinate.latitude - event.coordinate.latitude) <= 1e-9, "\(track.name)")
                #expect(abs(record.coordinate.longitude - event.coordinate.longitude) <= 1e-9, "\(track.name)")
            }
        }
        // Most of the shared tracks are timed; the comparison must not pass vacuously.
        #expect(timedTracks >= 5)
    }
}
