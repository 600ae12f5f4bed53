import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkDevices
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkDaemon

/// The `devices` section of the configuration, and the listener's memory of devices.
@Suite struct DeviceListenerTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    @Test(arguments: [
        ("devices:\n  listen: 127.0.0.1:8083\n", "127.0.0.1", 8083),
        ("devices:\n  listen: \":8083\"\n", "0.0.0.0", 8083),
        ("devices:\n  listen: \"[::1]:0\"\n", "::1", 0),
    ])
    func theListenerListensWhereTheSectionSays(yaml: String, host: String, port: Int) throws {
        let configuration = try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
        #expect(configuration.deviceListener?.host == host && configuration.deviceListener?.port == port)
        #expect(configuration.deviceListener?.maximumBodySize == 65_536)
        #expect(defaults.deviceListener == nil)
    }

    @Test(arguments: [
        ("devices:\n  listen: 8083\n", "waymark.yaml:2:11: devices.listen"),
        ("devices:\n  listen: localhost:99999\n", "is not HOST:PORT"),
        ("devices:\n  listen: :1\n  max_body_bytes: 10\n", "waymark.yaml:3:19: devices.max_body_bytes"),
        ("devices:\n  port: 1\n", "waymark.yaml:2:3: devices.port"),
        ("devices:\n  listen: :1\n  tls_key: key.pem\n", "tls_certificate and tls_key go together"),
    ])
    func badSectionsNameTheKeyAndLine(yaml: String, expected: String) {
        expectRefused(yaml, expected)
    }

    @Test func theMQTTSectionNamesTheBrokerAndReadsThePasswordFromAFile() throws {
        let directory = try TemporaryDirectory()
        let password = try directory.write("mqtt-password", "s3cret\n")
        let yaml = "mqtt:\n  host: broker.lan\n  port: 8883\n  username: waymark\n  password_file: \(password)\n  base_topic: home/owntracks\n"
        let settings = try #require(try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults).mqtt)
        #expect(settings.host == "broker.lan" && settings.port == 8883 && settings.username == "waymark" && settings.password == "s3cret")
        #expect(settings.baseTopic == "home/owntracks" && settings.clientID == "waymark")
        #expect(MQTTFeedService.topics(base: "owntracks") == ["owntracks/+/+", "owntracks/+/+/event", "owntracks/+/+/waypoint", "owntracks/+/+/waypoints", "owntracks/+/+/beacon", "owntracks/+/+/info"])
    }

    @Test(arguments: [
        ("mqtt:\n  password_file: /nonexistent/file\n", "waymark.yaml:2:18: mqtt.password_file: cannot read '/nonexistent/file'"),
        ("mqtt:\n  base_topic: owntracks/#\n", "mqtt.base_topic: must be a topic without wildcards"),
        ("mqtt:\n  client_id: waymark-with-a-very-long-client-id\n", "mqtt.client_id: must be 1–23 characters"),
        ("mqtt:\n  port: 0\n", "waymark.yaml:2:9: mqtt.port"),
        ("mqtt:\n  topic: x\n", "waymark.yaml:2:3: mqtt.topic"),
    ])
    func badMQTTSectionsNameTheKeyAndLine(yaml: String, expected: String) {
        expectRefused(yaml, expected)
    }

    private func expectRefused(_ yaml: String, _ expected: String) {
        do {
            _ = try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
            Issue.record("accepted \(yaml)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func theDirectoryRemembersFoundDevicesForItsLifetimeOnly() async throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let (phone, phoneSecret) = try store.addDevice(name: "phone", user: nil, at: Timestamp(secondsSince1970: 0))
        let (_, trackerSecret) = try store.addDevice(name: "tracker", user: nil, at: Timestamp(secondsSince1970: 0))
        // Long enough that a busy machine cannot outlast it between two lines; a short one below.
        let devices = DeviceDirectory(store: store, lifetime: .seconds(600))
        let shortLived = DeviceDirectory(store: store, lifetime: .milliseconds(50))

        #expect(try await devices.device(withSecret: phoneSecret.hash) == phone)
        #expect(try await devices.device(withSecret: trackerSecret.hash)?.name == "tracker")
        #expect(try await shortLived.device(withSecret: trackerSecret.hash)?.name == "tracker")
        #expect(try await devices.device(withSecret: DeviceSecret.hash("guess")) == nil)
        #expect(try await devices.device(named: "phone") == phone)

        // Removed behind its back: still known until the lifetime ends, or until cleared.
        try store.removeDevice(named: "phone")
        #expect(try await devices.device(withSecret: phoneSecret.hash) == phone)
        devices.clear()
        #expect(try await devices.device(withSecret: phoneSecret.hash) == nil)
        #expect(try await devices.device(withSecret: trackerSecret.hash)?.name == "tracker", "read again after the clear")
        try store.removeDevice(named: "tracker")
        #expect(try await devices.device(withSecret: trackerSecret.hash)?.name == "tracker")
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await shortLived.device(withSecret: trackerSecret.hash) == nil)
        #expect(try await devices.device(named: "phone") == nil)
    }

    /// Issue 48: an unknown name used to cost a store read and a known one a memory look-up,
    /// so the time of a 401 told a prober which names exist. Both come from one snapshot now:
    /// a device added behind the directory's back is unknown until its lifetime ends, just as a
    /// removed one stays known.
    @Test func unknownNamesAndSecretsAreAnsweredFromTheSameSnapshotAsKnownOnes() async throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try store.addDevice(name: "phone", user: nil, at: Timestamp(secondsSince1970: 0))
        let devices = DeviceDirectory(store: store, lifetime: .seconds(600))
        #expect(try await devices.device(named: "phone")?.name == "phone")
        #expect(try await devices.device(named: "tracker") == nil)

        let (_, secret) = try store.addDevice(name: "tracker", user: nil, at: Timestamp(secondsSince1970: 0))
        #expect(try await devices.device(named: "tracker") == nil, "an unknown name read the store")
        #expect(try await devices.device(withSecret: secret.hash) == nil, "an unknown secret read the store")
        devices.clear()
        #expect(try await devices.device(named: "tracker")?.name == "tracker")
        #expect(try await devices.device(withSecret: secret.hash)?.name == "tracker")
    }
}
