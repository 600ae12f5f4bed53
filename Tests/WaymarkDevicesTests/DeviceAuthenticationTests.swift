import Foundation
import Testing
import WaymarkCore
import WaymarkDevices

@Suite struct DeviceAuthenticationTests {
    let phoneSecret = DeviceSecret.generate()
    let trackerSecret = DeviceSecret.generate()

    var authentication: DeviceAuthentication {
        let devices = [
            Device(name: "phone", user: "alice", secretHash: phoneSecret.hash, createdAt: Timestamp(secondsSince1970: 0)),
            Device(name: "tracker", secretHash: trackerSecret.hash, createdAt: Timestamp(secondsSince1970: 0)),
            Device(name: "local", createdAt: Timestamp(secondsSince1970: 0)),
        ]
        return DeviceAuthentication(
            device: { name in devices.first { $0.name == name } },
            deviceWithSecret: { hash in devices.first { $0.secretHash == hash } })
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    func authenticate(_ header: String?, claimed: String?) throws -> String {
        try authentication.authenticate(DeviceCredentials.parse(authorization: header), claimed: claimed).name
    }

    func refusal(_ header: String?, claimed: String?) -> DeviceAuthentication.Refusal? {
        do {
            _ = try authentication.authenticate(try DeviceCredentials.parse(authorization: header), claimed: claimed)
            return nil
        } catch let refusal as DeviceAuthentication.Refusal {
            return refusal
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func aBearerSecretNamesItsDevice() throws {
        #expect(try authenticate("Bearer \(phoneSecret)", claimed: nil) == "phone")
        #expect(try authenticate("bearer   \(trackerSecret)", claimed: "tracker") == "tracker")
    }

    @Test func basicTakesTheDeviceNameOrItsUser() throws {
        #expect(try authenticate(Self.basic("phone", phoneSecret.text), claimed: nil) == "phone")
        // OwnTracks: the user in Basic, the device in X-Limit-D.
        #expect(try authenticate(Self.basic("alice", phoneSecret.text), claimed: "phone") == "phone")
        // A password with a colon in it is kept whole.
        #expect(refusal(Self.basic("phone", phoneSecret.text + ":x"), claimed: nil)?.status == .unauthorized)
    }

    @Test func nothingOrAWrongSecretIs401() {
        #expect(refusal(nil, claimed: "phone")?.status == .unauthorized)
        #expect(refusal("Bearer nope", claimed: nil)?.message == "the bearer token is no device's secret")
        #expect(refusal(Self.basic("alice", trackerSecret.text), claimed: "phone")?.status == .unauthorized)
        #expect(refusal(Self.basic("bob", phoneSecret.text), claimed: "phone")?.status == .unauthorized)
        // `local` has no secret: nothing authenticates as the gpsd receiver.
        #expect(refusal(Self.basic("local", ""), claimed: nil)?.status == .unauthorized)
    }

    @Test func aDeviceMayNotWriteAnothersData() {
        let refused = refusal("Bearer \(trackerSecret)", claimed: "phone")
        #expect(refused?.status == .forbidden)
        #expect(refused?.message == "authenticated as device 'tracker', which may not write device 'phone'")
    }

    @Test(arguments: [
        ("Digest abc", "Authorization: unsupported scheme 'Digest'; use Bearer or Basic"),
        ("Bearer", "Authorization: the Bearer scheme needs a token"),
        ("Basic !!!", "Authorization: Basic credentials are not base64 of UTF-8 text"),
        ("Basic " + Data("nocolon".utf8).base64EncodedString(), "Authorization: Basic credentials need USER:PASSWORD"),
    ])
    func malformedHeadersAreNamed(header: String, message: String) {
        #expect(throws: DeviceCredentials.Malformed.self) { try DeviceCredentials.parse(authorization: header) }
        do {
            _ = try DeviceCredentials.parse(authorization: header)
        } catch {
            #expect(error.description == message)
        }
        #expect(try! DeviceCredentials.parse(authorization: "  ") == nil)
    }

    @Test func namesAreShortNames() {
        #expect(DeviceName.problem(with: "alice-phone_2.0") == nil)
        #expect(DeviceName.problem(with: "owntracks/alice") != nil)
        #expect(DeviceName.problem(with: "") != nil)
        #expect(DeviceName.problem(with: String(repeating: "a", count: 65)) != nil)
    }
}
