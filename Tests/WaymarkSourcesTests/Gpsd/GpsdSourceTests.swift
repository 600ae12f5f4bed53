import Foundation
import Logging
import Testing
import WaymarkCore
@testable import WaymarkSources
import WaymarkTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd 3.22 fed recorded NMEA logs through ``GpsdHarness``, read by ``GpsdSource``.
/// Each test has its own ports, so they run in parallel.
struct GpsdSourceTests {
    static let logFolder = "nmea/gpsd-3.22"

    static func log(_ name: String) -> URL { ProjectPaths.sharedData("\(logFolder)/\(name)") }

    /// A fast backoff would hide the behaviour under test; these tests use the real default.
    static func source(_ harness: GpsdHarness, log: RecordedLog = RecordedLog()) -> GpsdSource {
        GpsdSource(port: harness.port, logger: log.logger())
    }

    // MARK: - gpsd's regression output, fix for fix

    @Test(arguments: ["ublox-lea-4h.log", "bundg_zeus_9.log", "bt451.log"])
    func fixesMatchGpsdsExpectedOutput(logName: String) async throws {
        let expected = try GpsdCheckFile.tpvReports(at: Self.log(logName + ".chk"))
        let harness = try GpsdHarness(log: Self.log(logName))
        defer { harness.shutdown() }
        try await harness.start()
        let source = Self.source(harness)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()

        let tpvCount = expected.count
        let complete = await recorder.wait(timeout: .seconds(10)) {
            $0.filter { $0.event.isFix || $0.event.isGap }.count >= tpvCount
        }
        #expect(complete, "\(logName): \(recorder.events.count) events of \(tpvCount) TPVs")
        // Anything after the last report would be a duplicate (the SKY trap).
        try await Task.sleep(for: .milliseconds(300))

        let fixes = recorder.fixes
        let expectedFixes = expected.filter(\.isFix)
        #expect(fixes.count == expectedFixes.count, "\(logName): fixes")
        for (index, (fix, report)) in zip(fixes, expectedFixes).enumerated() {
            #expect(fix.time == report.time, "\(logName) fix \(index): time")
            #expect(abs(fix.coordinate.latitude - (report.latitude ?? .nan)) <= 1e-6, "\(logName) fix \(index)")
            #expect(abs(fix.coordinate.longitude - (report.longitude ?? .nan)) <= 1e-6, "\(logName) fix \(index)")
            #expect(fix.mode == (report.mode == 2 ? .twoD : .threeD), "\(logName) fix \(index): mode")
            #expect(close(fix.altitude, report.altitude), "\(logName) fix \(index): altitude")
            #expect(close(fix.horizontalAccuracy, report.eph), "\(logName) fix \(index): eph")
            #expect(close(fix.verticalAccuracy, report.epv), "\(logName) fix \(index): epv")
            #expect(close(fix.longitudeAccuracy, report.epx), "\(logName) fix \(index): epx")
            #expect(close(fix.latitudeAccuracy, report.epy), "\(logName) fix \(index): epy")
            #expect(close(fix.speed, report.speed), "\(logName) fix \(index): speed")
            #expect(close(fix.course, report.track), "\(logName) fix \(index): track")
        }
        let gapTimes = recorder.events.compactMap { event -> Timestamp?? in
            if case .gap(let time, _) = event { time } else { nil }
        }
        #expect(gapTimes == expected.filter { !$0.isFix }.map(\.time), "\(logName): gaps")
        #expect(recorder.events.first == .connected(host: "127.0.0.1", port: harness.port))
        #expect(!recorder.hasDisconnected)
    }

    /// Equal within the printed precision of gpsd's JSON, or both missing.
    private func close(_ value: Double?, _ expected: Double?) -> Bool {
        switch (value, expected) {
        case (nil, nil): true
        case (let value?, let expected?): abs(value - expected) <= 1e-6 * max(1, abs(expected))
        default: false
        }
    }

    @Test func satellitesComeFromTheLastSkyReport() async throws {
        let harness = try GpsdHarness(log: Self.log("bundg_zeus_9.log"))
        defer { harness.shutdown() }
        try await harness.start()
        let source = Self.source(harness)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        #expect(await recorder.wait { $0.filter(\.event.isFix).count >= 100 })
        // The log's GSA lists 12 satellites and HDOP 0.60 from its first cycle on.
        let fix = try #require(recorder.fixes.dropFirst(50).first)
        #expect(fix.satellites == 12)
        #expect(fix.hdop == 0.6)
    }

    // MARK: - gpsd going away and coming back

    @Test func reconnectsWhenGpsdRestarts() async throws {
        // A line a millisecond, round and round: the receiver never runs dry, however slow the
        // machine, so fixes after the restart depend only on the source.
        let harness = try GpsdHarness(
            log: Self.log("bundg_zeus_9.log"), pace: .interval(.milliseconds(1)), repeats: true)
        defer { harness.shutdown() }
        try await harness.start()
        let source = Self.source(harness)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        #expect(await recorder.wait { $0.filter(\.event.isFix).count >= 20 })

        try await harness.stopGpsd(signal: SIGKILL)
        #expect(await recorder.wait(timeout: .seconds(2)) { $0.contains(where: \.event.isDisconnected) })
        try await Task.sleep(for: .milliseconds(700))  // several failed reconnection attempts
        let before = recorder.all.count
        try await harness.restartGpsd()
        let backAt = try #require(harness.gpsdReadyAt)

        let resumed = await recorder.wait(timeout: .seconds(4)) {
            $0.dropFirst(before).contains(where: \.event.isFix)
        }
        #expect(resumed, "no fix after gpsd came back: \(recorder.events.suffix(3))\n\(harness.gpsdLog)")
        let firstFix = try #require(recorder.firstFix(after: before))
        let delay = firstFix.at - backAt
        #expect(delay < .seconds(2), "fixes resumed \(delay) after gpsd came back")
        print("gpsd restart: fixes resumed \(delay) after gpsd accepted connections again")

        let kinds = recorder.events.filter { $0.isConnected || $0.isDisconnected }
        #expect(
            kinds == [
                .connected(host: "127.0.0.1", port: harness.port),
                .disconnected(reason: "gpsd closed the connection"),
                .connected(host: "127.0.0.1", port: harness.port),
            ])
    }

    /// A restart storm (docs/reliability.md): gpsd SIGKILLed and started again 20 times while
    /// it feeds; each time fixes resume within 2 s of its return, and each outage is reported
    /// once (one `disconnected`, hence one gap in the daemon's history).
    @Test func twentyGpsdRestartsEachResumeWithinTwoSeconds() async throws {
        let harness = try GpsdHarness(log: Self.log("bundg_zeus_9.log"), pace: .interval(.milliseconds(1)), repeats: true)
        defer { harness.shutdown() }
        try await harness.start()
        let source = Self.source(harness)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        #expect(await recorder.wait { $0.filter(\.event.isFix).count >= 5 })
        var worst = Duration.zero
        for round in 1...20 {
            try await harness.stopGpsd(signal: SIGKILL)
            #expect(await recorder.wait(timeout: .seconds(2)) { $0.filter(\.event.isDisconnected).count == round }, "round \(round)")
            let before = recorder.all.count
            try await harness.restartGpsd()
            let backAt = try #require(harness.gpsdReadyAt)
            #expect(await recorder.wait(timeout: .seconds(4)) { $0.dropFirst(before).contains(where: \.event.isFix) }, "round \(round): no fix")
            let firstFix = try #require(recorder.firstFix(after: before))
            worst = max(worst, firstFix.at - backAt)
        }
        #expect(worst < .seconds(2), "worst resume \(worst)")
        let events = recorder.events
        #expect(events.filter(\.isDisconnected).count == 20 && events.filter(\.isConnected).count == 21)
        print("gpsd restart storm: 20 restarts, worst resume \(worst) after gpsd accepted connections again")
    }

    @Test func retriesUntilGpsdStarts() async throws {
        let harness = try GpsdHarness(log: Self.log("ublox-lea-4h.log"))
        defer { harness.shutdown() }
        let log = RecordedLog()
        let source = Self.source(harness, log: log)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()

        #expect(await recorder.wait(timeout: .seconds(2)) { $0.contains(where: \.event.isDisconnected) })
        // Attempts at about 0.1, 0.3 and 0.7 s (backoff); waited for, not timed, on a busy machine.
        let retried = await recorder.wait(timeout: .seconds(10)) { _ in
            log.all.filter { $0.text == "gpsd still unreachable" }.count >= 3
        }
        #expect(retried, "retries while gpsd was absent: \(log.all.map(\.text))")
        // One event per outage, not one per attempt; the attempts are logged.
        #expect(recorder.events.count == 1)
        #expect(log.all.allSatisfy { $0.metadata["gpsd.port"] == String(harness.port) })

        try await harness.start()
        let backAt = try #require(harness.gpsdReadyAt)
        #expect(await recorder.wait(timeout: .seconds(3)) { $0.filter(\.event.isFix).count == 9 })
        let firstFix = try #require(recorder.firstFix(after: 0))
        #expect(firstFix.at - backAt < .seconds(2))
        #expect(recorder.events.first?.isDisconnected == true)
        #expect(recorder.events.dropFirst().first == .connected(host: "127.0.0.1", port: harness.port))
    }

    // MARK: - Watching on demand

    @Test func notWatchingStopsFixesAndWatchingResumesThem() async throws {
        let harness = try GpsdHarness(
            log: Self.log("bundg_zeus_9.log"), pace: .interval(.milliseconds(1)), repeats: true)
        defer { harness.shutdown() }
        try await harness.start()
        let source = Self.source(harness)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        #expect(await recorder.wait { $0.filter(\.event.isFix).count >= 10 })

        source.setWatching(false)
        // Reports already on their way still arrive: wait until none has come for 300 ms (a
        // busy machine drains them slowly), then none may come for 700 ms more.
        var paused = recorder.fixes.count
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(300))
            let now = recorder.fixes.count
            if now == paused { break }
            paused = now
        }
        try await Task.sleep(for: .milliseconds(700))
        #expect(recorder.fixes.count == paused, "fixes kept coming while not watching")

        source.setWatching(true)
        #expect(await recorder.wait(timeout: .seconds(2)) { $0.filter(\.event.isFix).count >= paused + 10 })
        #expect(!recorder.hasDisconnected)
    }

    // MARK: - Garbage

    @Test func survivesJunkBetweenNMEASentences() async throws {
        var junk: [[UInt8]] = [
            Array(0...255).map { UInt8($0) } + [0x0A],
            Array("$GPGGA,broken,,,\n".utf8),
            Array("{\"class\":\"TPV\",\"mode\":3}\n".utf8),
            [UInt8](repeating: 0xFF, count: 3000) + [0x0A],
            Array("$GPRMC,030859.00,A,4907.85396,N,12243.19848,W,1.322,323.21,100806,,,A*00\n".utf8),  // bad checksum
        ]
        var chunks: [[UInt8]] = []
        for (index, line) in try LineFeeder.lines(ofLog: Self.log("ublox-lea-4h.log")).enumerated() {
            chunks.append(line)
            if index % 5 == 4 {
                chunks.append(junk[0])
                junk.append(junk.removeFirst())
            }
        }
        let harness = try GpsdHarness(feeder: LineFeeder(chunks: chunks))
        defer { harness.shutdown() }
        try await harness.start()
        let source = Self.source(harness)
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()

        #expect(await recorder.wait { $0.filter(\.event.isFix).count >= 3 })
        try await Task.sleep(for: .milliseconds(500))
        // Every fix is one gpsd would report without the junk, in order, once.
        let expected = try GpsdCheckFile.tpvReports(at: Self.log("ublox-lea-4h.log.chk")).filter(\.isFix)
        let times = recorder.fixes.map(\.time)
        var remaining = expected.map(\.time)[...]
        for time in times {
            guard let index = remaining.firstIndex(of: time) else {
                Issue.record("unexpected or repeated fix at \(String(describing: time))")
                break
            }
            remaining = remaining[(index + 1)...]
        }
        #expect(!recorder.hasDisconnected)
    }

    /// Lines the fuzzer found (Fuzz/Crashes/gpsd): a TPV dated 9999, which a 64-bit nanosecond
    /// `Timestamp` cannot hold (it trapped), becomes an untimed fix; a line that sends libgps'
    /// own JSON parser into a loop (a malformed one, and well-formed ones with nested DEVICE
    /// objects) must not stop the reader.
    @Test func linesTheFuzzerFoundDoNotStopTheReader() async throws {
        let lines = [
            #"{"class":"TPV","mode":3,"time":"9999-12-31T23:59:59Z","lat":1,"lon":2}"#,
            #"{""},d"class":"TPV""#,
            #"{"x":[{"class":"DEVICE"}]}"#,
            #"{"":"","":[{"class":"DEVICE","":"","":"","":1,"":1}]}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T00:00:01.000Z","lat":52.1,"lon":5.2,"eph":4.5}"#,
        ]
        let feeder = try LineFeeder(chunks: lines.map { Array($0.utf8) + [0x0A] })
        defer { feeder.shutdown() }
        let source = GpsdSource(port: feeder.port, logger: RecordedLog().logger())
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        #expect(await recorder.wait(timeout: .seconds(10)) { $0.filter(\.event.isFix).count >= 2 }, "\(recorder.events)")
        let fixes = recorder.fixes
        #expect(fixes.first?.time == nil && fixes.first?.coordinate == Coordinate(latitude: 1, longitude: 2))
        #expect(fixes.last?.coordinate == Coordinate(latitude: 52.1, longitude: 5.2))
    }

    @Test func skipsGarbageFromGpsdItself() async throws {
        // A stand-in for gpsd: exactly the bytes a broken or foreign daemon might send.
        let lines = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            "\u{1}\u{2}\u{3} binary \u{7F} junk",
            #"{"class":"TPV","mode":3,"lat":"#,
            #"{"class":"BOGUS","lat":1,"lon":2}"#,
            "not json at all",
            #"{"class":"SKY","hdop":0.9,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":true},{"PRN":3,"used":false}]}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T00:00:01.000Z","lat":52.1,"lon":5.2,"eph":4.5}"#,
            #"{"class":"SKY","hdop":0.9,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":true}]}"#,
            #"{"class":"ERROR","message":"unrecognized request"}"#,
            #"{"class":"TPV","mode":1,"time":"2026-01-01T00:00:02.000Z"}"#,
            #"{"class":"TPV","mode":2,"lat":52.2,"lon":5.3}"#,
        ]
        let feeder = try LineFeeder(chunks: lines.map { Array($0.utf8) + [0x0A] })
        defer { feeder.shutdown() }
        let log = RecordedLog()
        let source = GpsdSource(port: feeder.port, logger: log.logger())
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()

        #expect(await recorder.wait { $0.filter(\.event.isFix).count >= 2 })
        try await Task.sleep(for: .milliseconds(200))
        let fixes = recorder.fixes
        #expect(fixes.map(\.coordinate) == [
            Coordinate(latitude: 52.1, longitude: 5.2), Coordinate(latitude: 52.2, longitude: 5.3),
        ])
        #expect(fixes.first?.satellites == 2)
        #expect(fixes.first?.hdop == 0.9)
        #expect(fixes.last?.time == nil)
        #expect(recorder.events.filter(\.isGap) == [.gap(time: Timestamp(rfc3339: "2026-01-01T00:00:02Z"), reason: "no fix (gpsd mode 1)")])
        // Junk, a cut-off TPV and plain text are not one JSON object: libgps never sees them.
        let skipped = log.all.filter { $0.text == "skipped a line from gpsd that is not one JSON object" }
        #expect(skipped.count == 3)
        let errorLogged = log.all.contains { $0.text == "gpsd reported an error" }
        #expect(errorLogged)
        #expect(!recorder.hasDisconnected)
    }

    @Test func aBurstArrivesInBatchesInOrderWithNothingLost() async throws {
        // 2,000 reports written at once: read back to back, handed on in batches of at most
        // `batchLimit`, in the order gpsd sent them.
        let count = 2_000
        let burst = (0..<count).map { second in
            #"{"class":"TPV","mode":2,"time":"2026-01-01T\#(Self.clock(second))Z","lat":52.0,"lon":5.0}"#
        }.joined(separator: "\n") + "\n"
        let feeder = try LineFeeder(chunks: [Array(burst.utf8)])
        defer { feeder.shutdown() }
        let source = GpsdSource(port: feeder.port, logger: RecordedLog().logger())
        source.start()
        defer { source.stop() }
        var batches: [[GpsdEvent]] = []
        var fixes: [Fix] = []
        for await batch in source.events {
            batches.append(batch)
            fixes += batch.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
            if fixes.count >= count { break }
        }
        #expect(fixes.count == count)
        #expect(fixes.map(\.time) == (0..<count).map { Timestamp(rfc3339: "2026-01-01T\(Self.clock($0))Z") })
        #expect(batches.allSatisfy { $0.count <= GpsdClientLoop.batchLimit })
        #expect(batches.count < count / 10, "a burst is handed on in batches, not report by report")
    }

    /// `HH:MM:SS` for a second of the day.
    private static func clock(_ second: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    }

    @Test func reconnectsAfterALineTooLong() async throws {
        let tpv = { (second: Int) in
            Array(#"{"class":"TPV","mode":3,"time":"2026-01-01T00:00:\#(10 + second).000Z","lat":52.1,"lon":5.2}"#.utf8) + [0x0A]
        }
        let chunks = [tpv(0), [UInt8](repeating: UInt8(ascii: "x"), count: 100_000) + [0x0A]] + (1...40).map(tpv)
        let feeder = try LineFeeder(chunks: chunks, pace: .interval(.milliseconds(20)))
        defer { feeder.shutdown() }
        let source = GpsdSource(port: feeder.port, logger: RecordedLog().logger())
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()

        let reconnected = await recorder.wait(timeout: .seconds(5)) {
            $0.filter(\.event.isConnected).count == 2 && $0.last?.event.isFix == true
        }
        #expect(reconnected, "\(recorder.events)")
        #expect(recorder.events.contains(.disconnected(reason: "gpsd sent a line longer than 16384 bytes")))
    }

    // MARK: - Lifecycle

    @Test func stopEndsTheStreamAndClosesTheConnection() async throws {
        let feeder = try LineFeeder(chunks: [])
        defer { feeder.shutdown() }
        let source = GpsdSource(port: feeder.port, logger: RecordedLog().logger())
        source.start()
        var iterator = source.events.makeAsyncIterator()
        // Connection changes travel alone, never inside a batch of reports.
        #expect(await iterator.next() == [.connected(host: "127.0.0.1", port: feeder.port)])
        source.stop()
        #expect(await iterator.next() == [.disconnected(reason: "source stopped")])
        #expect(await iterator.next() == nil)
        source.stop()  // twice is fine
    }

    /// A peer that stops talking and does not answer `?POLL;` (a hung gpsd, a host gone without
    /// closing its socket) is given up on after twice the silence limit, and opened anew.
    @Test func aSilentPeerThatIgnoresPOLLIsReconnected() async throws {
        let feeder = try LineFeeder(chunks: [])  // accepts, then says nothing, whatever it is sent
        defer { feeder.shutdown() }
        let source = GpsdSource(port: feeder.port, logger: RecordedLog().logger(), silenceLimit: .milliseconds(400))
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        let again = await recorder.wait(timeout: .seconds(10)) { $0.filter(\.event.isConnected).count >= 2 }
        #expect(again, "\(recorder.events)")
        let lost = recorder.events.compactMap { event -> String? in if case .disconnected(let reason) = event { reason } else { nil } }
        #expect(lost.first?.hasPrefix("gpsd silent for 0 s and no answer to ?POLL") == true, "\(lost)")
    }

    /// A real gpsd whose receiver sends nothing is silent too, but answers `?POLL;`: the
    /// connection stays.
    @Test func aQuietGpsdThatAnswersPOLLIsKept() async throws {
        let harness = try GpsdHarness(feeder: LineFeeder(chunks: []))
        defer { harness.shutdown() }
        try await harness.start()
        let log = RecordedLog()
        let source = GpsdSource(port: harness.port, logger: log.logger(), silenceLimit: .milliseconds(400))
        defer { source.stop() }
        let recorder = EventRecorder.start(source)
        source.start()
        #expect(await recorder.wait { $0.contains(where: \.event.isConnected) })
        try await Task.sleep(for: .seconds(3))  // several probes
        let events = recorder.events
        let dropped = events.contains { $0.isDisconnected }
        #expect(!dropped, "\(events)\n\(harness.gpsdLog)")
    }

    @Test func cancellingRunStopsTheSource() async throws {
        let source = GpsdSource(port: try freePort(), logger: RecordedLog().logger())
        var iterator = source.events.makeAsyncIterator()
        let task = Task { await source.run() }
        #expect(await iterator.next()?.first?.isDisconnected == true)  // running: nothing listens there
        task.cancel()
        await task.value
        #expect(await iterator.next() == nil)
    }

    private func freePort() throws -> Int {
        let feeder = try LineFeeder(chunks: [])
        defer { feeder.shutdown() }
        return feeder.port  // closed again when the feeder shuts down
    }
}
