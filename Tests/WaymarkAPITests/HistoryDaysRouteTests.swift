import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkStore

extension FakeBackend {
    /// The daemon's own code over the fake's real in-memory store.
    func fixDays(device: String, timeZone: TimeZone) async throws -> [FixDay] {
        try await store.knownDeviceFixDays(device: device, timeZone: timeZone)
    }
}

/// `GET /v1/history/days` (docs/api.md): the days of a zone with fixes, and every refusal naming
/// its parameter.
@Suite struct HistoryDaysRouteTests {
    /// A second either side of Berlin's midnights around its 23-hour day (2026-03-29), and of
    /// Kathmandu's (+05:45) midnight starting 2026-06-01.
    static let times = [
        "2026-03-28T22:59:59Z", "2026-03-28T23:00:00Z", "2026-03-29T21:59:59Z", "2026-03-29T22:00:00Z",
        "2026-05-31T18:14:59Z", "2026-05-31T18:15:00Z",
    ]

    static func backend() throws -> FakeBackend {
        let backend = FakeBackend()
        let fixes = times.map { Fix(time: Timestamp(rfc3339: $0)!, coordinate: Coordinate(latitude: 52.5, longitude: 13.4)) }
        _ = try backend.store.recordFixes(fixes, source: "test", device: "local")
        return backend
    }

    static func days(_ uri: String) async throws -> [String: Any] {
        let response = try await TimelineRouteTests.get(try backend(), uri)
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try APIRouterTests.json(response.body)
    }

    static func pairs(_ object: [String: Any]) -> [String] {
        ((object["days"] as? [[String: Any]]) ?? []).map { "\($0["date"] as? String ?? "?")=\($0["fixes"] as? Int ?? -1)" }
    }

    @Test func berlinsShortDayAndItsNeighbours() async throws {
        let object = try await Self.days("/v1/history/days?device=local&tz=Europe/Berlin")
        #expect(object["device"] as? String == "local")
        #expect(object["timeZone"] as? String == "Europe/Berlin")
        #expect(Self.pairs(object) == ["2026-03-28=1", "2026-03-29=2", "2026-03-30=1", "2026-05-31=2"])
    }

    @Test func kathmandusQuarterHourMidnight() async throws {
        let object = try await Self.days("/v1/history/days?tz=Asia%2FKathmandu")
        #expect(object["timeZone"] as? String == "Asia/Kathmandu")
        #expect(Self.pairs(object) == ["2026-03-29=2", "2026-03-30=2", "2026-05-31=1", "2026-06-01=1"])
    }

    /// Names browsers report: ICU's older links (Asia/Calcutta) and Etc/UTC.
    @Test(arguments: ["Etc/UTC", "Asia/Calcutta", "Asia/Kolkata", "Etc/GMT+2", "GMT"])
    func zoneNamesOfTheDatabaseAreTaken(zone: String) async throws {
        let object = try await Self.days("/v1/history/days?tz=\(zone.replacingOccurrences(of: "+", with: "%2B"))")
        #expect(object["timeZone"] as? String == zone)
        #expect(Self.pairs(object).count >= 3)
    }

    @Test func utcIsTheDefault() async throws {
        let object = try await Self.days("/v1/history/days")
        #expect(object["timeZone"] as? String == "UTC")
        #expect(Self.pairs(object) == ["2026-03-28=2", "2026-03-29=2", "2026-05-31=2"])
    }

    @Test func aRegisteredDeviceWithoutFixesHasNoDays() async throws {
        let backend = try Self.backend()
        _ = try backend.store.addDevice(name: "phone", user: nil, at: Timestamp(secondsSince1970: 0))
        let response = try await TimelineRouteTests.get(backend, "/v1/history/days?device=phone&tz=Europe/Berlin")
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == #"{"device":"phone","timeZone":"Europe/Berlin","days":[]}"#)
    }

    @Test func anUnknownDeviceIs404() async throws {
        let response = try await TimelineRouteTests.get(try Self.backend(), "/v1/history/days?device=nobody")
        #expect(response.status == .notFound)
        #expect(try APIRouterTests.error(response).code == "no-device")
    }

    @Test(arguments: [
        ("/v1/history/days?tz=Mars/Olympus_Mons", "tz"),
        ("/v1/history/days?tz=", "tz"),
        ("/v1/history/days?tz=GMT%2B2", "tz"),
        ("/v1/history/days?tz=europe/berlin", "tz"),
        ("/v1/history/days?tz=PST", "tz"),
        ("/v1/history/days?tz=Europe//Berlin", "tz"),
        ("/v1/history/days?device=", "device"),
        ("/v1/history/days?zone=UTC", "zone"),
    ])
    func badParametersAre400NamingTheParameter(uri: String, parameter: String) async throws {
        let response = try await TimelineRouteTests.get(try Self.backend(), uri)
        #expect(response.status == .badRequest)
        let error = try APIRouterTests.error(response)
        #expect(error.code == "invalid-parameter")
        #expect(error.object["parameter"] as? String == parameter)
        #expect(error.message.hasPrefix(parameter + ":"))
    }

    @Test func theTokenIsAsked() async throws {
        let response = try await TimelineRouteTests.get(try Self.backend(), "/v1/history/days", token: "secret")
        #expect(response.status == .unauthorized)
    }
}
