import Foundation
import Testing
import WaymarkDaemon
import WaymarkPower
import WaymarkTestSupport

/// The `power` section of the daemon's YAML configuration.
@Suite struct PowerConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    static let profiles = ProjectPaths.repositoryRoot.appendingPathComponent("Profiles/power").path

    @Test func defaultsAreTheBuiltInProfilesAndContinuousSampling() throws {
        #expect(defaults.power.gnssProfile == .ubloxM8USB)
        #expect(defaults.power.bluetoothProfile == .bleAdapter)
        #expect(!defaults.power.aware)
        #expect(defaults.power.activity == .other)
        #expect(defaults.power.network == .auto)
        #expect(defaults.power.wifiProfile == .wifi && defaults.power.cellularProfile == .lteModem)
    }

    @Test func theNetworkRadioAndItsProfilesAreChosen() throws {
        let configuration = try parse(
            "power:\n  network: cellular\n  cellular_profile: \(Self.profiles)/lte-modem.yaml\n  wifi_profile: \(Self.profiles)/wifi.yaml\n")
        #expect(configuration.power.network == .cellular)
        #expect(configuration.power.cellularProfile == .lteModem)
        #expect(configuration.power.wifiProfile == .wifi)
    }

    @Test func theSectionLoadsProfilesAndChoosesTheSampling() throws {
        let configuration = try parse(
            "power:\n  gnss_profile: \(Self.profiles)/phone-gnss.yaml\n  aware: true\n  activity: fitness\n")
        #expect(configuration.power.gnssProfile.name == "phone-gnss")
        #expect(configuration.power.gnssProfile.startTimes["hot"] == 2)
        #expect(configuration.power.bluetoothProfile == .bleAdapter)
        #expect(configuration.power.aware)
        #expect(configuration.power.activity == .fitness)
    }

    @Test func aBrokenProfileIsReportedAtItsPlaceInBothFiles() throws {
        let directory = try TemporaryDirectory()
        let profile = try directory.write("gnss.yaml", "name: x\nradio: gnss\nstates:\n  off: { current_ma: -1, voltage: 3, source: s }\n")
        do {
            _ = try parse("power:\n  gnss_profile: \(profile)\n")
            Issue.record("a broken profile was accepted")
        } catch {
            // The configuration's place and key, then the profile's own place and key.
            #expect(error.description.hasPrefix("waymark.yaml:2:17: power.gnss_profile: \(profile):4:22: states.off.current_ma"), "\(error)")
        }
    }

    @Test(
        "bad keys and values name the key and line",
        arguments: [
            ("power:\n  awake: true\n", "waymark.yaml:2:3: power.awake: unknown key"),
            ("power:\n  aware: sometimes\n", "waymark.yaml:2:10: power.aware: must be true or false"),
            ("power:\n  activity: walking\n", "waymark.yaml:2:13: power.activity: 'walking' is not one of fitness, automotive, other, airborne"),
            ("power:\n  gnss_profile: /nonexistent/gnss.yaml\n", "waymark.yaml:2:17: power.gnss_profile: /nonexistent/gnss.yaml: cannot read"),
            ("power:\n  gnss_profile: \(profiles)/ble-adapter.yaml\n", "describes a bluetooth radio, not gnss"),
            ("power:\n  bluetooth_profile: \(profiles)/ublox-m8-usb.yaml\n", "power.bluetooth_profile: \(profiles)/ublox-m8-usb.yaml describes a gnss radio, not bluetooth"),
            ("power: true\n", "waymark.yaml:1:8: power: must be a mapping of keys"),
            ("power:\n  network: satellite\n", "waymark.yaml:2:12: power.network: \"satellite\" is not one of auto, wifi, cellular, none"),
            ("power:\n  wifi_profile: \(profiles)/lte-modem.yaml\n", "power.wifi_profile: \(profiles)/lte-modem.yaml describes a cellular radio, not wifi"),
            ("power:\n  cellular_profile: \(profiles)/wifi.yaml\n", "describes a wifi radio, not cellular"),
        ])
    func badSection(yaml: String, expected: String) {
        do {
            _ = try parse(yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }
}
