import Foundation
import Testing
import WaymarkCore
import WaymarkPower
import WaymarkTestSupport

/// The phone's energy, checked against figures worked by hand from the built-in phone profiles:
/// LTE active 0.339 A × 3.8 V = 1.2882 W, tail 0.279 A × 3.8 V = 1.0602 W, 11.6 s tail, 0.26 s
/// promotion, 750,000 B/s; GNSS tracking 0.05 A × 3.8 V = 0.19 W; a network fix 1.5 s of Wi-Fi
/// scanning at 0.456 W = 0.684 J; Wi-Fi active 0.133 W, tail 0.1178 W, 0.08 s promotion, 0.24 s tail.
@Suite struct PhoneEnergyModelTests {
    let start = Timestamp(secondsSince1970: 1_790_000_000)

    func at(_ seconds: Double) -> Timestamp { start.adding(seconds: seconds) }

    @Test func anHourOfMoveModeReportingEveryTenSecondsOnLTEKeepsTheModemUpAllAlong() {
        var model = PhoneEnergyModel()
        model.setMode(.move, at: at(0))
        for second in stride(from: 0.0, to: 3600, by: 10) {
            model.report(at: at(second), bytesSent: 300, bytesReceived: 200, connectivity: .mobile)
        }
        let estimate = model.estimate(closingAt: at(3600))
        // 360 transfers of 500 B (0.000667 s each) + one promotion: 0.5 s active; the 10 s gaps
        // never outlast the 11.6 s tail, so the other 3599.5 s are tail.
        let lte = 0.5 * 1.2882 + 3599.5 * 1.0602
        #expect(abs(estimate.joules[.cellular]! - lte) < 0.01)
        #expect(abs(estimate.joules[.gnss]! - 3600 * 0.19) < 1e-6)
        #expect(estimate.joules[.wifi] == nil)
        #expect(estimate.moveSeconds == 3600 && estimate.significantSeconds == 0 && estimate.unknownSeconds == 0)
        #expect(estimate.reports == 360 && estimate.networkFixes == 0)
        #expect(abs(estimate.joulesPerHour - (lte + 684)) < 0.01)
        #expect(estimate.profile == "phone-gnss + phone-wifi + phone-lte")
    }

    @Test func anHourOfSignificantModeWithTwelveReportsPaysTwelveTailsAndTwelveFixes() {
        var model = PhoneEnergyModel()
        model.setMode(.significant, at: at(0))
        for report in 0..<12 {
            model.report(at: at(Double(report) * 300), bytesSent: 300, bytesReceived: 200, connectivity: .mobile)
        }
        let estimate = model.estimate(closingAt: at(3600))
        let perReport = (0.26 + 500.0 / 750_000) * 1.2882 + 11.6 * 1.0602
        #expect(abs(estimate.joules[.cellular]! - 12 * perReport) < 1e-6)
        #expect(abs(estimate.joules[.wifi]! - 12 * 0.684) < 1e-9)
        #expect(estimate.joules[.gnss] == nil)
        #expect(estimate.significantSeconds == 3600 && estimate.moveSeconds == 0)
        #expect(estimate.networkFixes == 12)
        // About 160 J an hour against about 4,500 for move mode: the reason to steer phones.
        #expect(estimate.joulesPerHour > 150 && estimate.joulesPerHour < 170)
    }

    @Test func aReportOverWiFiCostsAFractionOfOneOverLTE() {
        var wifi = PhoneEnergyModel()
        var lte = PhoneEnergyModel()
        wifi.setMode(.move, at: at(0))
        lte.setMode(.move, at: at(0))
        wifi.report(at: at(0), bytesSent: 300, bytesReceived: 200, connectivity: .wifi)
        lte.report(at: at(0), bytesSent: 300, bytesReceived: 200, connectivity: .mobile)
        let onWiFi = wifi.estimate(closingAt: at(60)).joules[.wifi]!
        #expect(abs(onWiFi - ((0.08 + 500.0 / 1_250_000) * 0.133 + 0.24 * 0.1178)) < 1e-9)
        let onLTE = lte.estimate(closingAt: at(60)).joules[.cellular]!
        #expect(onLTE > 300 * onWiFi)
    }

    @Test func offlineReportsAreQueuedAndSentWithTheNextOneThatGetsThrough() {
        var model = PhoneEnergyModel()
        model.setMode(.significant, at: at(0))
        model.report(at: at(0), bytesSent: 400, bytesReceived: 100, connectivity: .offline)
        model.report(at: at(60), bytesSent: 400, bytesReceived: 100, connectivity: .offline)
        #expect(model.estimate(closingAt: at(100)).joules[.cellular] == nil)
        model.report(at: at(120), bytesSent: 400, bytesReceived: 100, connectivity: .mobile)
        let estimate = model.estimate(closingAt: at(600))
        // One promotion and one tail for the three reports' 1500 bytes.
        let oneBurst = (0.26 + 1500.0 / 750_000) * 1.2882 + 11.6 * 1.0602
        #expect(abs(estimate.joules[.cellular]! - oneBurst) < 1e-6)
        #expect(estimate.reports == 3 && estimate.queuedReports == 2)
        // The phone still positioned itself for each of them.
        #expect(estimate.networkFixes == 3)
    }

    @Test func aMoveModePhoneSilentForHoursIsNotPricedForTheGNSSPastTheStaleLimit() {
        var model = PhoneEnergyModel(staleSeconds: 3600)
        model.setMode(.move, at: at(0))
        model.report(at: at(0), bytesSent: 300, bytesReceived: 0, connectivity: .wifi)
        let estimate = model.estimate(closingAt: at(3 * 3600))
        #expect(estimate.moveSeconds == 3600 && estimate.unknownSeconds == 7200)
        #expect(abs(estimate.joules[.gnss]! - 684) < 1e-6)
        // Back after the gap: move again from the report on.
        model.report(at: at(3 * 3600), bytesSent: 300, bytesReceived: 0, connectivity: .wifi)
        let later = model.estimate(closingAt: at(3 * 3600 + 600))
        #expect(later.moveSeconds == 4200 && later.unknownSeconds == 7200)
    }

    @Test func timeInNoKnownModeIsCountedApartAndNotPricedForTheGNSS() {
        var model = PhoneEnergyModel()
        model.report(at: at(0), bytesSent: 300, bytesReceived: 0, connectivity: .mobile)
        model.setMode(.move, at: at(600))
        model.setMode(nil, at: at(900))
        let estimate = model.estimate(closingAt: at(1200))
        #expect(estimate.unknownSeconds == 900 && estimate.moveSeconds == 300)
        #expect(abs(estimate.joules[.gnss]! - 300 * 0.19) < 1e-9)
        #expect(estimate.durationSeconds == 1200)
    }

    @Test func aClockSteppingBackIsTakenAsTheLatestTimeAndNothingIsUnpriced() {
        var model = PhoneEnergyModel()
        model.setMode(.move, at: at(0))
        model.report(at: at(100), bytesSent: 300, bytesReceived: 0, connectivity: .mobile)
        model.report(at: at(40), bytesSent: 300, bytesReceived: 0, connectivity: .mobile)
        #expect(model.estimate(closingAt: at(30)).moveSeconds == 100)
        let estimate = model.estimate(closingAt: at(200))
        #expect(estimate.moveSeconds == 200)
        #expect(estimate.reports == 2)
        // Both reports in one burst at 100 s.
        let burst = (0.26 + 600.0 / 750_000) * 1.2882 + 11.6 * 1.0602
        #expect(abs(estimate.joules[.cellular]! - burst) < 1e-6)
    }

    @Test func estimatesAreCumulativeSoTheirDifferencesAddUp() {
        var model = PhoneEnergyModel()
        model.setMode(.move, at: at(0))
        var previous = PhoneEnergyEstimate()
        var sum = PhoneEnergyEstimate()
        // A noisy cadence: reports 1–40 s apart, some offline, some on Wi-Fi.
        var time = 0.0
        var generator = SystemRandomNumberGenerator()
        for index in 0..<200 {
            time += Double.random(in: 1...40, using: &generator)
            let connectivity: PhoneConnectivity = index % 7 == 0 ? .offline : index % 3 == 0 ? .wifi : .mobile
            if index == 100 { model.setMode(.significant, at: at(time)) }
            model.report(at: at(time), bytesSent: 250 + index, bytesReceived: 30, connectivity: connectivity)
            if index % 25 == 0 {
                let now = model.estimate(closingAt: at(time))
                sum = sum + now.since(previous)
                previous = now
            }
        }
        let final = model.estimate(closingAt: at(time + 60))
        sum = sum + final.since(previous)
        #expect(abs(sum.total - final.total) < 1e-6)
        #expect(abs(sum.durationSeconds - final.durationSeconds) < 1e-6)
        #expect(sum.reports == 200)
    }

    @Test func ownTracksConnValuesMapToRadios() {
        #expect(PhoneConnectivity(ownTracksConn: "w")?.radio == .wifi)
        #expect(PhoneConnectivity(ownTracksConn: "m")?.radio == .cellular)
        #expect(PhoneConnectivity(ownTracksConn: "o") == .offline)
        #expect(PhoneConnectivity(ownTracksConn: "x") == nil)
    }
}

@Suite struct PhoneProfilesTests {
    static let directory = ProjectPaths.repositoryRoot.appendingPathComponent("Profiles/power").path

    @Test func theShippedPhoneProfilesAreTheBuiltInOnes() throws {
        let loaded = try PhoneProfiles.load(directory: Self.directory)
        #expect(loaded == .default)
        for profile in [loaded.gnss, loaded.wifi, loaded.cellular] {
            for state in profile.states.values { #expect(!state.source.isEmpty) }
        }
        #expect(loaded.networkFixSeconds == 1.5)
    }

    /// A copy of the shipped files with one of them edited, in a temporary directory.
    func edited(_ file: String, _ change: (String) -> String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("phone-profiles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in [PhoneProfiles.fileNames.gnss, PhoneProfiles.fileNames.wifi, PhoneProfiles.fileNames.cellular] {
            var text = try String(contentsOfFile: Self.directory + "/" + name, encoding: .utf8)
            if name == file { text = change(text) }
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test func aWiFiProfileWithoutTheNetworkFixIsALocatedError() throws {
        let directory = try edited("phone-wifi.yaml") { $0.replacingOccurrences(of: "start_seconds: { network_fix: 1.5 }\n", with: "") }
        #expect {
            _ = try PhoneProfiles.load(directory: directory)
        } throws: { error in
            "\(error)" == directory + "/phone-wifi.yaml: start_seconds.network_fix: missing: the phone's Wi-Fi profile says how long the scan behind a network fix takes"
        }
    }

    @Test func aProfileOfTheWrongRadioNamesItsFile() throws {
        let directory = try edited("phone-lte.yaml") {
            $0.replacingOccurrences(of: "radio: cellular", with: "radio: wifi").replacingOccurrences(of: "  idle:", with: "  scanning: { current_ma: 1, voltage: 3.8, source: s }\n  idle:")
        }
        #expect {
            _ = try PhoneProfiles.load(directory: directory)
        } throws: { error in
            "\(error)" == directory + "/phone-lte.yaml: radio: the phone's cellular profile is for the wifi radio"
        }
    }

    @Test func aBadFigureIsLocatedByLineAndColumn() throws {
        let directory = try edited("phone-lte.yaml") { $0.replacingOccurrences(of: "current_ma: 279", with: "current_ma: -279") }
        #expect {
            _ = try PhoneProfiles.load(directory: directory)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(directory + "/phone-lte.yaml:") && text.hasSuffix("states.tail.current_ma: must be a number of milliamperes ≥ 0")
        }
    }
}
