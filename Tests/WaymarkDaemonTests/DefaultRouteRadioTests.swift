import Foundation
import Testing
import WaymarkPower
import WaymarkTestSupport

@testable import WaymarkDaemon

/// `power.network: auto`: the default route's interface, and what sysfs says it is, on small
/// copies of /proc and /sys laid out as the kernel lays them out.
@Suite struct DefaultRouteRadioTests {
    static let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"

    /// A /proc/net/route with these (interface, destination, flags, metric) lines.
    static func routes(_ lines: [(String, String, String, Int)]) -> String {
        header + lines.map { "\($0.0)\t\($0.1)\t010200C0\t\($0.2)\t0\t0\t\($0.3)\t00000000\t0\t0\t0\n" }.joined()
    }

    /// A machine: its route table and, per interface, the sysfs entries it has.
    static func machine(routes: String, interfaces: [String: [String: String]]) throws -> (proc: String, sys: String, directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let files = FileManager.default
        try files.createDirectory(atPath: directory.path("proc/net"), withIntermediateDirectories: true)
        _ = try directory.write("proc/net/route", routes)
        for (name, entries) in interfaces {
            let base = "sys/class/net/\(name)"
            try files.createDirectory(atPath: directory.path(base), withIntermediateDirectories: true)
            // "/" makes a directory (`wireless`, `phy80211`), anything else a file with that text.
            for (entry, text) in entries {
                if text == "/" {
                    try files.createDirectory(atPath: directory.path("\(base)/\(entry)"), withIntermediateDirectories: true)
                } else {
                    _ = try directory.write("\(base)/\(entry)", text)
                }
            }
        }
        return (directory.path("proc"), directory.path("sys"), directory)
    }

    @Test func aWirelessDefaultRouteIsWiFi() throws {
        let m = try Self.machine(
            routes: Self.routes([("wlan0", "00000000", "0003", 600), ("wlan0", "000200C0", "0001", 600)]),
            interfaces: ["wlan0": ["wireless": "/", "uevent": "DEVTYPE=wlan\nINTERFACE=wlan0\n"]])
        #expect(DefaultRouteRadio.detect(proc: m.proc, sys: m.sys) == .wifi)
    }

    @Test func aWWANModemIsCellularAndTheLowestMetricWins() throws {
        let m = try Self.machine(
            routes: Self.routes([("wlan0", "00000000", "0003", 600), ("wwan0", "00000000", "0003", 100)]),
            interfaces: ["wlan0": ["phy80211": "/"], "wwan0": ["uevent": "DEVTYPE=wwan\nINTERFACE=wwan0\n"]])
        #expect(DefaultRouteRadio.detect(proc: m.proc, sys: m.sys) == .cellular)
    }

    @Test func aPPPLinkIsCellular() throws {
        let m = try Self.machine(routes: Self.routes([("ppp0", "00000000", "0001", 0)]), interfaces: ["ppp0": ["uevent": "INTERFACE=ppp0\n"]])
        #expect(DefaultRouteRadio.detect(proc: m.proc, sys: m.sys) == .cellular)
    }

    @Test func ethernetADownRouteOrNoneIsNoRadio() throws {
        let wired = try Self.machine(routes: Self.routes([("eth0", "00000000", "0003", 0)]), interfaces: ["eth0": ["uevent": "INTERFACE=eth0\n"]])
        #expect(DefaultRouteRadio.detect(proc: wired.proc, sys: wired.sys) == nil)
        let down = try Self.machine(routes: Self.routes([("wlan0", "00000000", "0002", 0)]), interfaces: ["wlan0": ["wireless": "/"]])
        #expect(DefaultRouteRadio.detect(proc: down.proc, sys: down.sys) == nil)
        let local = try Self.machine(routes: Self.routes([("wlan0", "000200C0", "0001", 0)]), interfaces: ["wlan0": ["wireless": "/"]])
        #expect(DefaultRouteRadio.detect(proc: local.proc, sys: local.sys) == nil)
        #expect(DefaultRouteRadio.detect(proc: "/nonexistent", sys: "/nonexistent") == nil)
    }

    @Test func theSettingChoosesTheProfile() {
        var settings = PowerSettings()
        #expect(settings.networkProfile(detected: .wifi) == .wifi)
        #expect(settings.networkProfile(detected: .cellular) == .lteModem)
        #expect(settings.networkProfile(detected: nil) == nil)
        settings.network = .cellular
        #expect(settings.networkProfile(detected: .wifi) == .lteModem)
        settings.network = .none
        #expect(settings.networkProfile(detected: .wifi) == nil)
    }
}
