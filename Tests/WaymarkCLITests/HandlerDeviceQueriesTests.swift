import Foundation
import Testing
import WaymarkClient
import WaymarkTestSupport

/// A handler's `regionState` and `lastLocation` name the device they ask about
/// (docs/handlers.md): a real daemon, two OwnTracks devices sending over HTTP, and a handler
/// started by hand asking through the Swift client.
@Suite struct HandlerDeviceQueriesTests {
    typealias Rig = NetworkDevicesTests.Rig

    /// Connects as `name` (registered, not launched: it becomes active) once the daemon serves
    /// handlers: its socket is bound early in start-up, and a connection before the handler
    /// service runs is closed unanswered.
    static func connect(_ daemon: BackgroundProcess, in directory: TemporaryDirectory, as name: String = "all-log") async throws -> WaymarkHandlerClient {
        let socket = directory.path("handlers") + "/daemon-\(daemon.pid)/handlers.sock"
        var client: WaymarkHandlerClient?
        var failure: (any Error)?
        _ = try await BackgroundProcess.waitUntil(timeout: 30) {
            do {
                client = try await WaymarkHandlerClient.connect(socketPath: socket, name: name, token: nil)
            } catch {
                failure = error
            }
            return client != nil
        }
        return try #require(client, "\(String(describing: failure)): \(daemon.stderr.suffix(2000))")
    }

    static func connect(_ rig: Rig) async throws -> WaymarkHandlerClient {
        try await connect(rig.daemon, in: rig.directory)
    }

    /// OwnTracks locations from `device`, `latitudes` 30 s apart, ending ten minutes ago.
    static func send(_ rig: Rig, as secret: String, latitudes: [Double]) async throws {
        let start = Int(Date().timeIntervalSince1970) - 600
        for (index, latitude) in latitudes.enumerated() {
            let body = NetworkDevicesTests.location(latitude: latitude, longitude: 8.0, at: start + index * 30)
            let sent = try await rig.ownTracks(body, ["Authorization: Bearer \(secret)"])
            #expect(sent.status == 200, "\(sent.body)")
        }
    }

    @Test func eachDeviceIsAnsweredFromItsOwnPipeline() async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            let client = try await Self.connect(rig)
            // Known devices that have sent nothing yet: no fix, the region not yet decided.
            #expect(try await client.lastLocation(device: "phone") == nil)
            #expect(try await client.regionState("plaza", device: "tracker").state == "unknown")

            // The phone walks into the plaza (a 100 m circle at 47.0, 8.0); the tracker stays 1 km north.
            try await Self.send(rig, as: rig.phoneSecret, latitudes: [47.002, 47.0, 47.0])
            try await Self.send(rig, as: rig.trackerSecret, latitudes: [47.009, 47.01, 47.01])

            #expect(try await client.regionState("plaza", device: "phone").state == "inside")
            #expect(try await client.regionState("plaza", device: "tracker").state == "outside")
            // No device named: the gpsd receiver's, which has no fix here.
            #expect(try await client.regionState("plaza").state == "unknown")
            #expect(try await client.lastLocation() == nil)
            #expect(try await client.regionState("nowhere", device: "phone").state == nil)

            let phone = try #require(try await client.lastLocation(device: "phone"))
            #expect(phone.contains(#""device":"phone""#) && phone.contains(#""latitude":47,"#), "\(phone)")
            let tracker = try #require(try await client.lastLocation(device: "tracker"))
            #expect(tracker.contains(#""device":"tracker""#) && tracker.contains(#""latitude":47.01"#), "\(tracker)")
        }
    }

    /// After a restart, before the phone sends again: its pipeline is made from the store's
    /// saved states, its last fix read from the store.
    @Test func aDeviceSilentSinceARestartIsAnsweredFromTheStore() async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            try await Self.send(rig, as: rig.phoneSecret, latitudes: [47.002, 47.0, 47.0])
        }
        // all-log has the phone's events queued, so the new daemon launches it at once: ask as a
        // handler that nothing launches (the tracker's only, and the tracker sends nothing).
        let added = try await runWaymark(
            ["handlers", "add", "asker", "--exec", HandlerScenario.handlerPath, "--regions", "plaza", "--device", "tracker", "--db", rig.db])
        try #require(added.status == 0, "\(added.stderr)")
        let socket = rig.directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark(["serve", "--gpsd", "127.0.0.1:9", "--db", rig.db, "--socket", socket])
        try await daemon.whileRunning {
            let client = try await Self.connect(daemon, in: rig.directory, as: "asker")
            let phone = try #require(try await client.lastLocation(device: "phone"), "\(daemon.stderr.suffix(2000))")
            #expect(phone.contains(#""device":"phone""#) && phone.contains(#""latitude":47,"#), "\(phone)")
            #expect(try await client.regionState("plaza", device: "phone").state == "inside")
            #expect(try await client.lastLocation(device: "tracker") == nil)
        }
    }

    @Test func anUnknownDeviceIsAnErrorNamingIt() async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            let client = try await Self.connect(rig)
            for query in [{ _ = try await client.regionState("plaza", device: "ghost") }, { _ = try await client.lastLocation(device: "ghost") }] {
                do {
                    try await query()
                    Issue.record("a query about an unknown device was answered")
                } catch let error as WaymarkClientError {
                    #expect(error.code == "handler.unknown-device")
                    #expect(error.description.contains("'ghost'"), "\(error)")
                }
            }
            // The connection is still in step: the next answer is this request's.
            #expect(try await client.regionState("plaza", device: "phone").state == "unknown")
        }
    }

    /// The answer on the wire, for handlers written without the Swift client.
    @Test func theErrorTakesTheAnswersPlace() async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            let socket = rig.directory.path("handlers") + "/daemon-\(rig.daemon.pid)/handlers.sock"
            // Connected as another handler, the daemon is serving handlers by now.
            let serving = try await Self.connect(rig.daemon, in: rig.directory, as: "phone-log")
            defer { _ = serving }
            // Python, as handlers without the Swift client speak it: three lines out, three replies back.
            let script = """
                import socket, sys
                connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                connection.connect(sys.argv[1])
                connection.sendall("".join(line + "\\n" for line in sys.argv[2:]).encode())
                reader = connection.makefile("r", encoding="utf-8")
                for _ in range(3):
                    print(reader.readline(), end="")
                """
            let requests = [
                #"{"type":"hello","handler":"all-log"}"#, #"{"type":"lastLocation","device":"ghost","request":"q1"}"#,
                #"{"type":"lastLocation","device":"phone","request":"q2"}"#,
            ]
            let lines = try await runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, socket] + requests).stdoutLines
            let answers = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["type"] as? String == "answer" }
            #expect(answers.map { $0["request"] as? String } == ["q1", "q2"], "\(lines)")
            let error = answers.first?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "handler.unknown-device", "\(lines)")
            #expect(answers.first?["value"] is NSNull && answers.last?["value"] is NSNull && answers.last?["error"] == nil, "\(lines)")
        }
    }
}
