import Foundation
import HummingbirdTesting
import Testing
import WaymarkAPI
import WaymarkCore

/// `?device=` on the per-device reads (docs/api.md): `GET /v1/fixes/last` and
/// `GET /v1/regions/{id}/state` answer for the device named, `local` when none is, and 404
/// `no-device` for one the daemon does not know.
@Suite struct APIDeviceReadsTests {
    /// Two devices besides `local`: each with its own last fix and its own side of `park`.
    static func backend() -> FakeBackend {
        let backend = FakeBackend(
            history: FakeBackend.sampleHistory + [
                FakeBackend.fix(50, latitude: 47.1, longitude: 8.1, device: "bike"),
                FakeBackend.fix(60, latitude: 47.2, longitude: 8.2, device: "walker"),
                FakeBackend.fix(70, latitude: 47.3, longitude: 8.3, device: "bike"),
            ])
        backend.state.withLock {
            $0.deviceStates["bike"] = ["park": RegionStateInfo(identifier: "park", state: "outside", since: FakeBackend.time(55))]
            $0.deviceStates["walker"] = ["park": RegionStateInfo(identifier: "park", state: "inside", since: FakeBackend.time(65))]
        }
        return backend
    }

    @Test func lastFixIsPerDevice() async throws {
        try await APIRouterTests.withClient(Self.backend()) { client in
            for (uri, latitude) in [
                ("/v1/fixes/last", 52.002), ("/v1/fixes/last?device=local", 52.002), ("/v1/fixes/last?device=bike", 47.3),
                ("/v1/fixes/last?device=walker", 47.2),
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                #expect(try APIRouterTests.json(response.body)["latitude"] as? Double == latitude, "\(uri)")
            }
            let unknown = try await client.execute(uri: "/v1/fixes/last?device=ghost", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try APIRouterTests.error(unknown).code == "no-device")
            let other = try await client.execute(uri: "/v1/fixes/last?devices=bike", method: .get)
            #expect(other.status == .badRequest)
            #expect(try APIRouterTests.error(other).code == "invalid-parameter")
        }
    }

    @Test func regionStateIsPerDevice() async throws {
        try await APIRouterTests.withClient(Self.backend()) { client in
            for (uri, state, since) in [
                ("/v1/regions/park/state", "inside", "2024-05-01T12:00:30Z"),
                ("/v1/regions/park/state?device=bike", "outside", "2024-05-01T12:00:55Z"),
                ("/v1/regions/park/state?device=walker", "inside", "2024-05-01T12:01:05Z"),
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                let object = try APIRouterTests.json(response.body)
                #expect(object["state"] as? String == state, "\(uri)")
                #expect(object["since"] as? String == since, "\(uri)")
            }
            let unknownDevice = try await client.execute(uri: "/v1/regions/park/state?device=ghost", method: .get)
            #expect(unknownDevice.status == .notFound)
            #expect(try APIRouterTests.error(unknownDevice).code == "no-device")
            let unknownRegion = try await client.execute(uri: "/v1/regions/lake/state?device=bike", method: .get)
            #expect(unknownRegion.status == .notFound)
            #expect(try APIRouterTests.error(unknownRegion).code == "no-region")
            let empty = try await client.execute(uri: "/v1/regions/park/state?device=", method: .get)
            #expect(empty.status == .badRequest)
        }
    }
}
