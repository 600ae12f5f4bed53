import Foundation
import Testing
import WaymarkDaemon
import WaymarkSteering

/// `devices.power_policy`, `devices.region_window` and `devices.per_device` (docs/configuration.md).
@Suite struct SteeringConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func defaultsAndOverrides() throws {
        #expect(defaults.steering == SteeringSettings(powerPolicy: .auto, regionWindow: 20))
        let configuration = try parse("""
            devices:
              listen: ":8085"
              power_policy: off
              region_window: 12
              per_device:
                kids-phone: {power_policy: auto}
                tablet:
                  region_window: 50
            """)
        let steering = configuration.steering
        #expect(steering.powerPolicy == .off)
        #expect(steering.powerPolicy(for: "kids-phone") == .auto)
        #expect(steering.powerPolicy(for: "tablet") == .off)
        #expect(steering.regionWindow(for: "tablet") == 50)
        #expect(steering.regionWindow(for: "kids-phone") == 12)
        #expect(configuration.deviceListener?.port == 8085)
        // Without a listener (phones over MQTT only) the keys still apply.
        #expect(try parse("devices:\n  power_policy: off\n").steering.powerPolicy == .off)
        #expect(try parse("devices:\n  power_policy: off\n").deviceListener == nil)
    }

    @Test(
        "bad values name the key and line",
        arguments: [
            ("devices:\n  power_policy: sometimes\n", "waymark.yaml:2:17: devices.power_policy: 'sometimes' is not one of off, auto"),
            ("devices:\n  power_policy: false\n", "devices.power_policy: 'false' is not one of off, auto"),
            ("devices:\n  region_window: -1\n", "waymark.yaml:2:18: devices.region_window: -1 is outside 0…10000"),
            ("devices:\n  region_window: many\n", "devices.region_window: must be an integer"),
            ("devices:\n  per_device:\n    phone:\n      region_windw: 3\n", "waymark.yaml:4:7: devices.per_device.phone.region_windw: unknown key"),
            ("devices:\n  per_device:\n    phone: {power_policy: on}\n", "devices.per_device.phone.power_policy: 'on' is not one of off, auto"),
            ("devices:\n  per_device: [phone]\n", "devices.per_device: must be a mapping"),
            ("devices:\n  power_polcy: off\n", "devices.power_polcy: unknown key; [devices] takes listen, max_body_bytes, tls_certificate, tls_key, power_policy"),
        ])
    func badValues(yaml: String, expected: String) {
        do {
            _ = try parse(yaml)
            Issue.record("accepted \(yaml)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }

    /// A fleet's ingest node reads only these keys of `--config`.
    @Test func aFleetReadsTheSameKeys() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("steering-\(UUID()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "gpsd:\n  host: x\ndevices:\n  listen: \":1\"\n  per_device:\n    van: {power_policy: off}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let steering = try SteeringSettings.load(yamlFile: file)
        #expect(steering.powerPolicy(for: "van") == .off)
        #expect(steering.powerPolicy(for: "car") == .auto)
        try "devices:\n  region_window: -4\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try SteeringSettings.load(yamlFile: file) }
    }
}
