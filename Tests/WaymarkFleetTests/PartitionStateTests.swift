import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkPipeline
import WaymarkRegions
import WaymarkSources
import WaymarkTestSupport

@testable import WaymarkFleet

/// A partition's pipelines as a worker runs them, with what the database would hold between
/// batches kept in memory: the fleet's answer for one device must be the single engine's,
/// however the input is cut into batches, handed over or redelivered.
@Suite struct PartitionStateTests {
    /// What `FleetDatabase.write` keeps of the batches, and `resume` gives back.
    struct Database {
        var states: [String: [String: SavedRegionState]] = [:]
        var established: [String: EstablishedRegions] = [:]
        var lastSequence: [String: UInt64] = [:]
        var events: [String: FleetBatch.StoredEvent] = [:]

        mutating func write(_ batch: FleetBatch) {
            for (device, states) in batch.states { self.states[device, default: [:]].merge(states) { $1 } }
            established.merge(batch.established) { $1 }
            lastSequence.merge(batch.lastSequence) { $1 }
            for event in batch.events where events[event.id] == nil { events[event.id] = event }
        }

        func resume(_ device: String) -> DeviceResume {
            DeviceResume(
                states: SavedRegionStates(Array(states[device, default: [:]].values), established: established[device]),
                lastSequence: lastSequence[device] ?? 0)
        }

        /// The device's event records in the order they happened.
        func records(_ device: String) -> [String] {
            events.values.filter { $0.device == device }.sorted { ($0.sequence, Self.index($0)) < ($1.sequence, Self.index($1)) }.map(\.record)
        }

        /// The event's place among those of its fix: the last part of `device/sequence/index`.
        static func index(_ event: FleetBatch.StoredEvent) -> Int {
            Int(event.id.split(separator: "/").last ?? "") ?? 0
        }
    }

    static let root = ProjectPaths.repositoryRoot.path

    static func inputs(device: String, firstSequence: UInt64 = 1, every stride: UInt64 = 1) throws -> [PartitionState.Input] {
        var source = try GPXFixSource(path: root + "/Tracks/lakeside-ride.gpx")
        var inputs: [PartitionState.Input] = []
        var sequence = firstSequence
        while let fix = try source.next() {
            guard let time = fix.time else { continue }
            inputs.append(PartitionState.Input(sequence: sequence, payload: FixPayload(device: device, fix: fix, time: time)))
            sequence += stride
        }
        return inputs
    }

    static func monitors() throws -> RegionMonitors {
        RegionMonitors(try GeoJSONRegionLoader.load(paths: [root + "/Regions/lakeside.geojson"]))
    }

    /// Runs `batches` through a partition, writing each to `database`; a new partition state
    /// (another worker taking over) before each batch when `handOver`.
    static func run(_ batches: [[PartitionState.Input]], handOver: Bool, into database: inout Database) throws {
        var state = PartitionState(monitors: try monitors(), regionsVersion: 1)
        for batch in batches {
            if handOver { state = PartitionState(monitors: try monitors(), regionsVersion: 1) }
            for device in state.unknownDevices(in: batch) { state.admit(device, from: database.resume(device)) }
            database.write(state.apply(batch))
        }
    }

    /// What the single engine records for the track: its events less those the recording policy
    /// does not keep (the initial state).
    static func singleEngine() throws -> [String] {
        var pipeline = DevicePipeline(monitors: try monitors())
        var source = try GPXFixSource(path: root + "/Tracks/lakeside-ride.gpx")
        var records: [String] = []
        while let fix = try source.next() {
            for case .event(let record) in pipeline.handle(.fix(fix)).events.map(\.recording) { records.append(record.record) }
        }
        return records
    }

    @Test func batchesAndDevicesInterleavedGiveEachDeviceTheSingleEnginesEvents() throws {
        let a = try Self.inputs(device: "a", firstSequence: 1, every: 2)
        let b = try Self.inputs(device: "b.2", firstSequence: 2, every: 2)
        let merged = zip(a, b).flatMap { [$0, $1] }
        var database = Database()
        try Self.run(stride(from: 0, to: merged.count, by: 256).map { Array(merged[$0..<min($0 + 256, merged.count)]) }, handOver: false, into: &database)
        let expected = try Self.singleEngine()
        #expect(expected.count > 10)
        #expect(database.records("a") == expected)
        #expect(database.records("b.2") == expected)
    }

    @Test func aRedeliveredBatchIsAppliedOnce() throws {
        let inputs = try Self.inputs(device: "a")
        var database = Database()
        var state = PartitionState(monitors: try Self.monitors(), regionsVersion: 1)
        state.admit("a", from: database.resume("a"))
        let first = state.apply(Array(inputs[0..<1000]))
        database.write(first)
        // The acknowledgement was lost: the same fixes come again, then the rest.
        let again = state.apply(Array(inputs[500..<1000]))
        #expect(again.events.isEmpty && again.states.isEmpty && again.lastSequence.isEmpty)
        #expect(again.fixes.map(\.sequence) == first.fixes[500..<1000].map(\.sequence), "stored again, idempotently")
        database.write(state.apply(Array(inputs[1000...])))
        #expect(database.records("a") == (try Self.singleEngine()))
    }

    /// A device's own report is recorded as its event, in order with its fixes, and a
    /// redelivered one is not recorded again.
    @Test func aReportIsRecordedInOrderAndOnce() throws {
        let fixes = try Self.inputs(device: "a", firstSequence: 1, every: 2)
        let record = #"{"kind":"reportedRegion","transition":"enter","region":"home","time":"2026-06-01T08:00:10Z"}"#
        let report = PartitionState.Input(
            sequence: 4,
            payload: .report(
                ReportPayload(
                    device: "a", time: Timestamp(rfc3339: "2026-06-01T08:00:10Z")!, kind: .reportedRegion, region: "home", record: record)))
        let inputs = [fixes[0], fixes[1], report, fixes[2]]
        var state = PartitionState(monitors: try Self.monitors(), regionsVersion: 1)
        state.admit("a", from: Database().resume("a"))
        let batch = state.apply(inputs)
        #expect(batch.fixes.count == 3, "a report is not a fix")
        let mine = batch.events.filter { $0.kind == "reportedRegion" }
        #expect(mine.count == 1 && mine[0].record == record && mine[0].sequence == 4 && mine[0].region == "home")
        #expect(batch.lastSequence["a"] == 5)
        #expect(state.apply([report]).events.isEmpty, "a redelivered report is not recorded again")
        #expect(try ReportPayload.decode(report.payloadReport!.encoded()) == report.payloadReport)
    }

    /// A new owner for every batch resumes from what the batches wrote: every transition is
    /// reported once, in order. A crossing still awaiting confirmation at a handover is not
    /// part of the saved state (docs/fleet.md, "Failover"): the next owner confirms it from its
    /// own fixes, so its instant may come later, by less than the confirmation hold.
    @Test func handingThePartitionOverBetweenBatchesResumesFromTheDatabase() throws {
        let inputs = try Self.inputs(device: "a")
        var database = Database()
        try Self.run(stride(from: 0, to: inputs.count, by: 400).map { Array(inputs[$0..<min($0 + 400, inputs.count)]) }, handOver: true, into: &database)
        let expected = try Self.singleEngine().filter { $0.contains(#""kind":"region""#) }.map(Self.transition)
        let got = database.records("a").filter { $0.contains(#""kind":"region""#) }.map(Self.transition)
        #expect(got.map(\.what) == expected.map(\.what))
        var shifted = 0
        for (g, e) in zip(got, expected) where g.time != e.time {
            shifted += 1
            #expect(g.time > e.time && g.time - e.time < 60, "\(g) vs \(e)")
        }
        #expect(shifted <= 2, "only crossings pending at one of the six handovers move")
    }

    /// (transition and region, seconds of the day) of a region record.
    static func transition(_ record: String) -> (what: String, time: Int) {
        func member(_ name: String) -> String {
            guard let start = record.range(of: "\"\(name)\":\"") else { return "" }
            return String(record[start.upperBound...].prefix { $0 != "\"" })
        }
        let clock = member("time").split(separator: "T").last?.prefix(8).split(separator: ":").compactMap { Int($0) } ?? []
        return (member("transition") + " " + member("region"), clock.count == 3 ? clock[0] * 3600 + clock[1] * 60 + clock[2] : -1)
    }

    @Test func partitionsSpreadDevicesAndAgreeWithEveryNode() {
        var counts = [Int](repeating: 0, count: 8)
        for index in 0..<8000 { counts[FleetSubjects.partition(of: "device-\(index)", among: 8)] += 1 }
        #expect(counts.allSatisfy { (800...1200).contains($0) }, "\(counts)")
        // FNV-1a's published test vector: "a" → 0xe40c292c.
        #expect(FleetSubjects.partition(of: "a", among: 0xFFFF_FFFF) == Int(0xe40c_292c % 0xFFFF_FFFF))
        #expect(FleetSubjects.fix(device: "bike.1", partitions: 4).hasSuffix(".bike%2E1"))
    }

    @Test func aFixCrossesTheBusUnchanged() throws {
        let fix = Fix(
            time: Timestamp(nanosecondsSince1970: 1_780_000_000_123_456_789), coordinate: Coordinate(latitude: 47.355972, longitude: 8.6700161),
            altitude: 422.33, horizontalAccuracy: 4, satellites: 9, mode: .threeD, speed: 3.5, course: 271)
        let payload = FixPayload(device: "bike.1", fix: fix, time: fix.time!)
        let decoded = try FixPayload.decode(payload.encoded())
        #expect(decoded == payload)
        #expect(decoded.fix == fix)
        #expect(throws: (any Error).self) { try FixPayload.decode(Array(#"{"d":"x","t":"soon"}"#.utf8)) }
    }
}

extension PartitionState.Input {
    var payloadReport: ReportPayload? {
        if case .report(let report) = payload { return report }
        return nil
    }
}
