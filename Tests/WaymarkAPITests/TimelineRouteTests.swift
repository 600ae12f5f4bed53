import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkRegions
import WaymarkServices
import WaymarkStore
import WaymarkTestSupport
import WaymarkTimelineJob

extension FakeBackend {
    /// The daemon's own timeline code over the fake's real in-memory store, without place data.
    func timeline(_ request: TimelineRequest) async throws -> Timeline {
        let logger = Logger(label: "timeline-test", factory: { _ in SwiftLogNoOpLogHandler() })
        return try await StoreTimelines(store: store, places: .none(logger: logger), logger: logger).timeline(request)
    }
}

/// `GET /v1/timeline` (docs/timeline/web.md): the JSON of a store holding a noisy day, and every
/// refusal naming its parameter.
@Suite struct TimelineRouteTests {
    static let day = "2026-05-02"
    /// 09:00Z on the day.
    static let morning = Timestamp(secondsSince1970: 1_777_712_400)
    static let home = Coordinate(latitude: 47.3700, longitude: 8.5400)
    static let office = Coordinate(latitude: 47.3880, longitude: 8.5400)

    /// Twenty minutes at home, six minutes riding 2 km north (an outlier and missing accuracy on
    /// the way), twenty minutes at the office; one fix every 5 s with wandering error of about
    /// 10 m, a 90 s gap in the first stay.
    static func noisyDay() -> [Fix] {
        var generator = SplitMix64(seed: 41)
        var fixes: [Fix] = []
        var wander = (north: 0.0, east: 0.0)
        func add(_ t: Double, _ at: Coordinate, accuracy: Double? = 12) {
            wander.north = 0.8 * wander.north + generator.nextGaussian() * 4
            wander.east = 0.8 * wander.east + generator.nextGaussian() * 4
            let coordinate = Coordinate(
                latitude: at.latitude + wander.north / 111_195, longitude: at.longitude + wander.east / (111_195 * cos(at.latitude * .pi / 180)))
            fixes.append(Fix(time: morning.adding(seconds: t), coordinate: coordinate, horizontalAccuracy: accuracy))
        }
        for t in stride(from: 0.0, to: 1200, by: 5) where !(300..<390).contains(t) { add(t, home) }
        let ride = 360.0
        for t in stride(from: 1200.0, to: 1200 + ride, by: 5) {
            let share = (t - 1200) / ride
            let at = Coordinate(latitude: home.latitude + share * (office.latitude - home.latitude), longitude: home.longitude)
            if t == 1400 {
                // One wild fix a kilometre off the road.
                add(t, Coordinate(latitude: at.latitude, longitude: at.longitude + 0.013), accuracy: 400)
            } else {
                add(t, at, accuracy: Int(t) % 3 == 0 ? nil : 15)
            }
        }
        for t in stride(from: 1200 + ride, to: 1200 + ride + 1200, by: 5) { add(t, office) }
        return fixes
    }

    static func backend(fixes: [Fix] = noisyDay()) throws -> FakeBackend {
        let backend = FakeBackend()
        let homeRegion = Region(identifier: "home", shape: .circle(center: home, radius: 120), propertiesJSON: "{\"name\":\"Home\",\"radius\":120}")
        try backend.store.importRegions([homeRegion], replace: true)
        _ = try backend.store.recordFixes(fixes, source: "test")
        return backend
    }

    static func get(_ backend: FakeBackend, _ uri: String, token: String? = nil) async throws -> TestResponse {
        let box = Mutex<TestResponse?>(nil)
        try await APIRouterTests.withClient(backend, token: token) { client in
            let response = try await client.execute(uri: uri, method: .get)
            box.withLock { $0 = response }
        }
        return try #require(box.withLock { $0 })
    }

    @Test func theDayIsItsStaysAndTheTripBetween() async throws {
        let backend = try Self.backend()
        let response = try await Self.get(backend, "/v1/timeline?device=local&day=\(Self.day)")
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        #expect(response.headers[.contentType] == "application/json")
        let object = try APIRouterTests.json(response.body)
        #expect(object["device"] as? String == "local")
        // Without place data the day is taken in UTC.
        #expect(object["timeZone"] as? String == "UTC")
        #expect(object["from"] as? String == "2026-05-02T00:00:00Z")
        #expect(object["to"] as? String == "2026-05-03T00:00:00Z")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.map { $0["kind"] as? String } == ["stay", "trip", "stay"], "\(entries)")
        guard entries.count == 3 else { return }
        let (home, trip, office) = (entries[0], entries[1], entries[2])
        let homePlace = try #require(home["place"] as? [String: Any])
        #expect(homePlace["label"] as? String == "Home")
        #expect(homePlace["region"] as? String == "home")
        // No place data: no GeoNames members.
        #expect(homePlace["name"] == nil && homePlace["country"] == nil)
        let arrival = try #require(home["arrival"] as? String)
        #expect(arrival.hasPrefix("2026-05-02T09:0"))
        #expect(home["localArrival"] as? String == arrival.replacingOccurrences(of: "Z", with: "+00:00"))
        let officePlace = try #require(office["place"] as? [String: Any])
        #expect(officePlace["region"] == nil)
        #expect((officePlace["label"] as? String)?.isEmpty == false)
        // The ride: about 2 km, the outlier not counted as a kilometre's detour.
        let distance = try #require(trip["distance"] as? Double)
        #expect((1700...2600).contains(distance), "trip distance \(distance) m")
        #expect(trip["mode"] as? String == "cycling" || trip["mode"] as? String == "running", "\(trip["mode"] ?? "none")")
        let path = try #require(trip["path"] as? [[Double]])
        #expect(path.count >= 2 && path.allSatisfy { $0.count == 2 })
        #expect((trip["from"] as? [String: Any])?["label"] as? String == "Home")
    }

    @Test func aRangeGivesTheSameEntriesAsItsDay() async throws {
        let backend = try Self.backend()
        let day = try APIRouterTests.json(try await Self.get(backend, "/v1/timeline?day=\(Self.day)").body)
        let range = try await Self.get(backend, "/v1/timeline?from=2026-05-02T00:00:00Z&to=2026-05-03T00:00:00Z")
        #expect(range.status == .ok)
        let object = try APIRouterTests.json(range.body)
        #expect((object["entries"] as? [Any])?.count == (day["entries"] as? [Any])?.count)
    }

    @Test func aDayWithoutFixesIsEmpty() async throws {
        let backend = try Self.backend()
        let response = try await Self.get(backend, "/v1/timeline?day=2026-05-04")
        #expect(response.status == .ok)
        #expect((try APIRouterTests.json(response.body)["entries"] as? [Any])?.isEmpty == true)
    }

    @Test func anUnknownDeviceIs404() async throws {
        let response = try await Self.get(try Self.backend(), "/v1/timeline?device=nobody&day=\(Self.day)")
        #expect(response.status == .notFound)
        #expect(try APIRouterTests.error(response).code == "no-device")
    }

    @Test func theTokenIsAsked() async throws {
        let response = try await Self.get(try Self.backend(), "/v1/timeline?day=\(Self.day)", token: "secret")
        #expect(response.status == .unauthorized)
    }

    @Test(arguments: [
        ("/v1/timeline", "day"),
        ("/v1/timeline?day=", "day"),
        ("/v1/timeline?day=2026-02-29", "day"),
        ("/v1/timeline?day=2026-5-2", "day"),
        ("/v1/timeline?day=02.05.2026", "day"),
        ("/v1/timeline?day=2026-05-02T00:00:00Z", "day"),
        ("/v1/timeline?day=2026-05-02&from=2026-05-02T00:00:00Z", "day"),
        ("/v1/timeline?from=2026-05-02T00:00:00Z", "to"),
        ("/v1/timeline?to=2026-05-02T00:00:00Z", "from"),
        ("/v1/timeline?from=yesterday&to=2026-05-02T00:00:00Z", "from"),
        ("/v1/timeline?from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z", "to"),
        ("/v1/timeline?from=2026-05-02T00:00:00Z&to=2026-05-02T00:00:00Z", "to"),
        ("/v1/timeline?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z", "to"),
        ("/v1/timeline?day=2026-05-02&device=", "device"),
        ("/v1/timeline?day=2026-05-02&zone=UTC", "zone"),
    ])
    func badParametersAre400NamingTheParameter(uri: String, parameter: String) async throws {
        let response = try await Self.get(try Self.backend(fixes: []), uri)
        #expect(response.status == .badRequest)
        let error = try APIRouterTests.error(response)
        #expect(error.code == "invalid-parameter")
        #expect(error.object["parameter"] as? String == parameter)
        #expect(error.message.hasPrefix(parameter + ":"))
    }

    /// The day view draws each mode in the colour the export's overlays use.
    @Test func theDayViewDrawsModesInTheExportsColours() throws {
        let script = try String(
            contentsOf: ProjectPaths.repositoryRoot.appendingPathComponent("Sources/WaymarkAPI/Web/day.js"), encoding: .utf8)
        for mode in TravelMode.allCases {
            #expect(script.contains("  \(mode.rawValue): \"\(mode.colour.hex)\","), "day.js does not draw \(mode.rawValue) in \(mode.colour.hex)")
        }
    }

    @Test func otherMethodsAre405() async throws {
        let box = Mutex<TestResponse?>(nil)
        try await APIRouterTests.withClient(try Self.backend(fixes: [])) { client in
            let response = try await client.execute(uri: "/v1/timeline?day=\(Self.day)", method: .post)
            box.withLock { $0 = response }
        }
        let response = try #require(box.withLock { $0 })
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET")
    }
}
