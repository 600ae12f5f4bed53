import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkStore

/// `GET /v1/power` and the power part of `/v1/status`, over the fake daemon's ledger.
@Suite struct PowerRouteTests {
    @Test func byRadioSumsHandlersAndStatesAndNamesTheProfile() async throws {
        try await APIRouterTests.withClient { client in
            let response = try await client.execute(uri: "/v1/power", method: .get)
            #expect(response.status == .ok)
            let object = try APIRouterTests.json(response.body)
            #expect(object["by"] as? String == "radio")
            #expect(object["from"] is NSNull)
            let rows = try #require(object["rows"] as? [[String: Any]])
            #expect(rows.map { $0["radio"] as? String } == ["bluetooth", "gnss"])
            #expect(rows.map { $0["profile"] as? String } == ["ble-adapter", "ublox-m8-usb"])
            #expect(rows.allSatisfy { $0["handler"] == nil })
            #expect(rows[1]["seconds"] as? [String: Double] == ["acquiring": 30, "tracking": 1200, "off": 3600])
            #expect(rows[1]["joules"] as? Double == 81.45)
            #expect(object["totalJoules"] as? Double == 117.09)
        }
    }

    @Test func byHandlerSinceAnInstantTakesItsWholeHour() async throws {
        let backend = FakeBackend()
        try await APIRouterTests.withClient(backend) { client in
            let since = FakeBackend.time(3600 + 1800).rfc3339
            let response = try await client.execute(uri: "/v1/power?by=handler&since=\(since)", method: .get)
            #expect(response.status == .ok)
            let object = try APIRouterTests.json(response.body)
            #expect(object["from"] as? String == FakeBackend.time(3600).rfc3339)
            let rows = try #require(object["rows"] as? [[String: Any]])
            #expect(rows.map { "\($0["handler"]!)/\($0["radio"]!)" } == ["hiker/bluetooth", "hiker/gnss"])
            #expect(rows[1]["seconds"] as? [String: Double] == ["off": 3600])
        }
        #expect(backend.state.withLock { $0.lastEnergySince } == .some(FakeBackend.time(5400)))
    }

    @Test(arguments: [
        ("/v1/power?by=hour", "by", "\"hour\" is not radio or handler"),
        ("/v1/power?since=yesterday", "since", "is not an RFC 3339 time"),
        ("/v1/power?from=2024-05-01T00:00:00Z", "from", "unknown parameter"),
        ("/v1/power?device=", "device", "names a device"),
        ("/v1/power?device=phone&by=handler", "by", "a device's estimate is by radio and mode"),
    ])
    func badParametersAre400NamingThem(uri: String, parameter: String, message: String) async throws {
        try await APIRouterTests.withClient { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest)
            let error = try APIRouterTests.error(response)
            #expect(error.code == "invalid-parameter")
            #expect(error.object["parameter"] as? String == parameter)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func statusSaysWhatTheSamplerIsDoing() async throws {
        try await APIRouterTests.withClient { client in
            let object = try APIRouterTests.json(try await client.execute(uri: "/v1/status", method: .get).body)
            let gnss = try #require((object["power"] as? [String: Any])?["gnss"] as? [String: Any])
            #expect(gnss["sampler"] as? String == "sleeping")
            #expect(gnss["sleepingUntil"] as? String == FakeBackend.time(600).rfc3339)
            #expect(gnss["profile"] as? String == "ublox-m8-usb")
            #expect(gnss["joulesSinceStart"] as? Double == 41.85)
            let bluetooth = try #require((object["power"] as? [String: Any])?["bluetooth"] as? [String: Any])
            #expect(bluetooth["joulesSinceStart"] is NSNull)
        }
    }
}

/// `GET /v1/power?device=` on a backend that prices no phones (the fake, like the fleet): a 404 naming the device.
@Suite struct PhonePowerRouteTests {
    @Test func aDeviceWithoutAnEstimateIsA404NamingIt() async throws {
        try await APIRouterTests.withClient { client in
            let response = try await client.execute(uri: "/v1/power?device=nobody", method: .get)
            #expect(response.status == .notFound)
            let error = try APIRouterTests.error(response)
            #expect(error.code == "no-device")
            #expect(error.message.contains("\"nobody\""), "\(error.message)")
        }
    }
}
