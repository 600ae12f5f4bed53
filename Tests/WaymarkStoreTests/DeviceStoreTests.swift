import GRDB
import Testing
import WaymarkCore
import WaymarkDevices
import WaymarkStore
import WaymarkTestSupport

/// Devices in a real SpatiaLite file: `local` from the start, secrets kept only as hashes.
@Suite struct DeviceStoreTests {
    @Test func aNewStoreHasTheLocalReceiverWithoutASecret() throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: quietLogger)
        let devices = try store.devices()
        #expect(devices.map(\.name) == ["local"])
        #expect(devices.first?.secretHash == nil)
        #expect(devices.first?.user == "local")
    }

    @Test func aDeviceIsFoundByNameAndBySecretAndTheSecretIsNotStored() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("w.sqlite")
        let store = try WaymarkStore(path: path, logger: quietLogger)
        let secret = DeviceSecret.generate()
        try store.addDevice(Device(name: "phone", user: "alice", secretHash: secret.hash, secretHint: secret.hint, createdAt: HistorySample.at(5)))

        let phone = try #require(try store.device(named: "phone"))
        #expect(phone.user == "alice")
        #expect(phone.accepts(secret.text))
        #expect(phone.createdAt == HistorySample.at(5))
        #expect(try store.device(withSecret: secret.hash)?.name == "phone")
        #expect(try store.device(withSecret: DeviceSecret.hash("guess")) == nil)
        #expect(try store.device(named: "nobody") == nil)

        let raw = try DatabaseQueue(path: path).read { db in try Row.fetchAll(db, sql: "SELECT * FROM devices") }
        #expect(!raw.description.contains(secret.text))
    }

    @Test func aNewSecretReplacesTheOld() throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: quietLogger)
        let first = DeviceSecret.generate()
        try store.addDevice(Device(name: "tracker", secretHash: first.hash, createdAt: HistorySample.at(0)))
        let second = DeviceSecret.generate()
        #expect(try store.setDeviceSecret(second, device: "tracker"))
        let tracker = try #require(try store.device(named: "tracker"))
        #expect(tracker.accepts(second.text))
        #expect(!tracker.accepts(first.text))
        #expect(tracker.secretHint == second.hint)
        #expect(try !store.setDeviceSecret(second, device: "nobody"))
    }

    @Test func duplicatesBadNamesAndTheLocalReceiverAreRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: quietLogger)
        try store.addDevice(Device(name: "phone", createdAt: HistorySample.at(0)))
        let duplicate = #expect(throws: StoreError.self) { try store.addDevice(Device(name: "phone", createdAt: HistorySample.at(1))) }
        #expect(duplicate?.code == .duplicateIdentifier)
        let badName = #expect(throws: StoreError.self) { try store.addDevice(Device(name: "a/b", createdAt: HistorySample.at(1))) }
        #expect(badName?.message == "name: the device name 'a/b' is not 1–64 letters, digits, '.', '_' or '-'")
        let badUser = #expect(throws: StoreError.self) { try store.addDevice(Device(name: "ok", user: "", createdAt: HistorySample.at(1))) }
        #expect(badUser?.message.hasPrefix("user: ") == true)
        #expect(throws: StoreError.self) { try store.removeDevice(named: "local") }
        #expect(throws: StoreError.self) { try store.setDeviceSecret(DeviceSecret.generate(), device: "local") }

        #expect(try store.removeDevice(named: "phone"))
        #expect(try !store.removeDevice(named: "phone"))
        #expect(try store.devices().map(\.name) == ["local"])
    }
}
