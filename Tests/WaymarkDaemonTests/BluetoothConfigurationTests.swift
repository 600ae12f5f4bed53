import Testing
import WaymarkBeacons
import WaymarkDaemon

/// The `bluetooth` section of the daemon's YAML configuration.
@Suite struct BluetoothConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func theSectionChoosesTheAdapterAndTheScan() throws {
        #expect(defaults.bluetooth == nil)
        let configuration = try parse("bluetooth:\n  adapter: hci1\n  scan_interval: 1.28\n  scan_window: 0.32\n")
        #expect(configuration.bluetooth == BluetoothSettings(adapter: "hci1", scan: ScanParameters(interval: 1.28, window: 0.32)))
        #expect(configuration.bluetooth?.scan.dutyCycle == 0.25)
        #expect(try parse("bluetooth: {}\n").bluetooth == BluetoothSettings())
    }

    @Test(
        "bad keys and scans name the key and line",
        arguments: [
            ("bluetooth:\n  adaptor: hci0\n", "waymark.yaml:2:3: bluetooth.adaptor"),
            ("bluetooth:\n  scan_window: -1\n", "waymark.yaml:2:16: bluetooth.scan_window"),
            ("bluetooth:\n  scan_interval: 0.1\n  scan_window: 0.5\n", "cannot be longer than the interval"),
        ])
    func badSection(yaml: String, expected: String) {
        #expect(throws: ConfigurationError.self) { try parse(yaml) }
        do {
            _ = try parse(yaml)
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
