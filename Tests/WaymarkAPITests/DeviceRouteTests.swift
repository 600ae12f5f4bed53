import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WaymarkAPI
import WaymarkDevices
import WaymarkStore

/// `/v1/devices` over a real in-memory store: the secret is answered once and then only its hash
/// is kept; bad names are 400s naming the field.
@Suite struct DeviceRouteTests {
    @Test func anAddedDeviceGetsASecretShownOnceThatItsStoredHashAccepts() async throws {
        let backend = FakeBackend()
        try await APIRouterTests.withClient(backend) { client in
            let created = try await client.execute(
                uri: "/v1/devices", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: #"{"name":"phone","user":"alice"}"#))
            #expect(created.status == .created)
            let device = try JSONDecoder().decode(DeviceStatus.self, from: Data(buffer: created.body))
            let secret = try #require(device.secret)
            #expect(device.name == "phone" && device.user == "alice" && device.hasSecret)
            #expect(device.secretHint == String(secret.prefix(4)))
            #expect(try backend.store.device(named: "phone")?.accepts(secret) == true)

            let listed = try await client.execute(uri: "/v1/devices", method: .get)
            let list = try JSONDecoder().decode(DeviceList.self, from: Data(buffer: listed.body))
            #expect(list.devices.map(\.name) == ["local", "phone"])
            #expect(list.devices.allSatisfy { $0.secret == nil })
            #expect(!String(buffer: listed.body).contains(secret))
            #expect(list.devices.first?.hasSecret == false)
        }
    }

    @Test func aNewSecretRetiresTheOld() async throws {
        let backend = FakeBackend()
        try await APIRouterTests.withClient(backend) { client in
            let created = try await client.execute(uri: "/v1/devices", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: #"{"name":"tracker"}"#))
            let first = try #require(try JSONDecoder().decode(DeviceStatus.self, from: Data(buffer: created.body)).secret)
            let renewed = try await client.execute(uri: "/v1/devices/tracker/secret", method: .post)
            #expect(renewed.status == .ok)
            let second = try #require(try JSONDecoder().decode(DeviceStatus.self, from: Data(buffer: renewed.body)).secret)
            let stored = try #require(try backend.store.device(named: "tracker"))
            #expect(stored.accepts(second) && !stored.accepts(first))
        }
    }

    @Test(arguments: [
        (#"{"name":"owntracks/alice"}"#, "invalid-parameter", "name: the device name 'owntracks/alice' is not 1–64 letters, digits, '.', '_' or '-'"),
        (#"{"name":"phone","user":""}"#, "invalid-parameter", "user: the device name '' is not 1–64 letters, digits, '.', '_' or '-'"),
        (#"{"user":"alice"}"#, "invalid-body", "expected {\"name\": NAME"),
        ("[1,2", "invalid-body", "expected {\"name\": NAME"),
    ])
    func badBodiesAre400NamingTheField(body: String, code: String, message: String) async throws {
        let backend = FakeBackend()
        try await APIRouterTests.withClient(backend) { client in
            let response = try await client.execute(uri: "/v1/devices", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try APIRouterTests.error(response)
            #expect(error.code == code)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
        #expect(try backend.store.devices().map(\.name) == ["local"])
    }

    @Test func duplicatesTheLocalReceiverAndUnknownDevicesAreRefused() async throws {
        try await APIRouterTests.withClient { client in
            _ = try await client.execute(uri: "/v1/devices", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: #"{"name":"phone"}"#))
            let again = try await client.execute(uri: "/v1/devices", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: #"{"name":"phone"}"#))
            #expect(again.status == .conflict)
            #expect(try APIRouterTests.error(again).code == "store.duplicate-identifier")
            for (uri, method) in [("/v1/devices/local", HTTPRequest.Method.delete), ("/v1/devices/local/secret", .post)] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .badRequest)
                #expect(try APIRouterTests.error(response).message.contains("gpsd receiver"))
            }
            let missing = try await client.execute(uri: "/v1/devices/nobody", method: .delete)
            #expect(missing.status == .notFound)
            #expect(try APIRouterTests.error(missing).code == "no-device")
            #expect(try await client.execute(uri: "/v1/devices/phone", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/v1/devices/phone", method: .delete).status == .notFound)
        }
    }
}
