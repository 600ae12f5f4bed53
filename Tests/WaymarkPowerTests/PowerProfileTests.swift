import Foundation
import Testing
import WaymarkPower
import WaymarkTestSupport

@Suite struct PowerProfileTests {
    @Test(arguments: ["ublox-m8-usb", "phone-gnss", "ble-adapter", "wifi", "lte-modem"])
    func everyShippedProfileLoads(name: String) throws {
        let path = ProjectPaths.repositoryRoot.appendingPathComponent("Profiles/power/\(name).yaml").path
        let profile = try PowerProfile.load(file: path)
        #expect(profile.name == name)
        for state in PowerProfile.requiredStates(of: profile.radio) {
            #expect(profile.states[state]?.source.isEmpty == false)
        }
    }

    @Test func theDefaultGNSSProfileHasTheDataSheetFigures() throws {
        let profile = try PowerProfile.load(file: ProjectPaths.repositoryRoot.appendingPathComponent("Profiles/power/ublox-m8-usb.yaml").path)
        #expect(profile.states["tracking"] == PowerState(current: 0.022, voltage: 3.0, source: profile.states["tracking"]!.source))
        #expect(profile.startTimes == ["cold": 29, "warm": 25, "hot": 1])
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let yaml: String
        let expected: String
        var testDescription: String { expected }
    }

    static let bad: [Bad] = [
        .init(yaml: "name: x\nradio: sonar\nstates: {}\n", expected: "p.yaml:2:8: radio: must be one of gnss, bluetooth, wifi, cellular"),
        .init(yaml: "name: x\nradio: bluetooth\nstates:\n  off: { current_ma: 0, voltage: 3, source: s }\n", expected: "states.scanning: missing"),
        .init(yaml: "name: x\nradio: bluetooth\nstates:\n  off: { current_ma: -1, voltage: 3, source: s }\n", expected: "p.yaml:4:22: states.off.current_ma: must be a number of milliamperes ≥ 0"),
        .init(yaml: "name: x\nradio: bluetooth\nstates:\n  off: { current_ma: 1, voltage: 0, source: s }\n", expected: "p.yaml:4:34: states.off.voltage: must be a number of volts > 0"),
        .init(yaml: "name: x\nradio: bluetooth\nstates:\n  off: { current_ma: 1, voltage: 3 }\n", expected: "p.yaml:4:8: states.off: needs current_ma, voltage and source"),
        .init(yaml: "name: x\nradio: gnss\ncolour: red\n", expected: "p.yaml:3:1: colour: unknown key"),
        .init(yaml: "radio: gnss\nstates: {}\n", expected: "name: missing"),
        .init(yaml: "name: [\n", expected: "p.yaml: not YAML"),
        .init(yaml: Self.modem(transfer: nil), expected: "transfer: missing: a cellular profile says how traffic moves it"),
        .init(
            yaml: Self.modem(transfer: "{ promotion_seconds: 0.2, tail_seconds: 10, throughput_kbps: 0 }"),
            expected: "p.yaml:8:72: transfer.throughput_kbps: must be a number of kilobits a second > 0"),
        .init(
            yaml: Self.modem(transfer: "{ promotion_seconds: -1, tail_seconds: 10, throughput_kbps: 100 }"),
            expected: "p.yaml:8:32: transfer.promotion_seconds: must be a number of seconds ≥ 0"),
        .init(yaml: Self.modem(transfer: "{ tail_seconds: 10, throughput_kbps: 100 }"), expected: "p.yaml:8:11: transfer: needs promotion_seconds"),
        .init(yaml: Self.modem(transfer: "{ tail: 10 }"), expected: "p.yaml:8:13: transfer.tail: unknown key"),
    ]

    /// A cellular profile with every state, and `transfer` as given (line 8).
    static func modem(transfer: String?) -> String {
        let states = ["off", "idle", "active", "tail"].map { "  \($0): { current_ma: 1, voltage: 3, source: s }\n" }.joined()
        return "name: m\nradio: cellular\nstates:\n" + states + (transfer.map { "transfer: \($0)\n" } ?? "")
    }

    @Test(arguments: bad)
    func aBadProfileIsALocatedError(_ bad: Bad) {
        #expect {
            _ = try PowerProfile.parse(yaml: bad.yaml, file: "p.yaml")
        } throws: { error in
            let text = String(describing: error)
            return text.contains(bad.expected) || text.hasPrefix(bad.expected)
        }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: PowerProfileError.self) { _ = try PowerProfile.load(file: "/nonexistent/profile.yaml") }
    }
}

@Test(
    "the built-in default profiles are the shipped files",
    arguments: [
        ("ublox-m8-usb.yaml", PowerProfile.ubloxM8USB), ("ble-adapter.yaml", PowerProfile.bleAdapter), ("wifi.yaml", PowerProfile.wifi),
        ("lte-modem.yaml", PowerProfile.lteModem),
    ])
func builtInDefaultMatchesTheFile(file name: String, builtIn: PowerProfile) throws {
    let file = try PowerProfile.load(file: ProjectPaths.repositoryRoot.appendingPathComponent("Profiles/power/" + name).path)
    #expect(file == builtIn)
}
