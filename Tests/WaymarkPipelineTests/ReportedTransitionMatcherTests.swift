import Testing
import WaymarkCore
import WaymarkPipeline

/// The phone's reported transitions beside the server's (docs/devices.md, "Phone and server
/// side by side"): each reason, the tolerance's edge, and nearest-first pairing.
struct ReportedTransitionMatcherTests {
    static func at(_ seconds: Int64, _ region: String, _ transition: String) -> SideTransition {
        SideTransition(
            time: Timestamp(nanosecondsSince1970: 1_700_000_000_000_000_000 + seconds * 1_000_000_000), region: region,
            transition: transition == "enter" ? .enter : .exit)
    }

    static func compare(_ phone: [SideTransition], _ server: [SideTransition]) -> TransitionComparison {
        ReportedTransitionMatcher.compare(phone: phone, server: server, monitored: ["home", "work"])
    }

    @Test func transitionsWithinFiveMinutesAgree() {
        let result = Self.compare(
            [Self.at(0, "home", "exit"), Self.at(3600, "work", "enter")],
            [Self.at(300, "home", "exit"), Self.at(3500, "work", "enter")])
        #expect(result.disagreements == [])
        #expect(result.agreed.count == 2)
    }

    @Test func aTransitionJustBeyondTheToleranceIsLateOrEarly() {
        let result = Self.compare(
            [Self.at(0, "home", "exit"), Self.at(3600, "home", "enter")],
            [Self.at(301, "home", "exit"), Self.at(3000, "home", "enter")])
        #expect(result.agreed.isEmpty)
        #expect(result.disagreements.map(\.reason) == [.serverLater, .serverEarlier])
        #expect(result.disagreements.map(\.side) == [.phone, .phone])
        #expect(result.disagreements.first?.counterpart == Self.at(301, "home", "exit"))
    }

    @Test func aServerTransitionBeyondThePhonesNextReportIsAnotherCrossing() {
        // The server's exit comes after the phone's next report for home: not the same crossing.
        let result = Self.compare(
            [Self.at(0, "home", "exit"), Self.at(1000, "home", "enter")],
            [Self.at(990, "home", "enter"), Self.at(2000, "home", "exit")])
        #expect(result.disagreements.map(\.reason) == [.serverHeld, .notReported])
        #expect(result.disagreements.map(\.side) == [.phone, .server])
        #expect(result.agreed.count == 1)
    }

    @Test func aRegionTheServerDoesNotHaveIsUnknown() {
        let result = Self.compare([Self.at(0, "gym", "enter")], [])
        #expect(result.disagreements.map(\.reason) == [.unknownRegion])
    }

    @Test func onlyRegionsThePhoneReportedAreCompared() {
        let result = Self.compare([Self.at(0, "home", "exit")], [Self.at(10, "home", "exit"), Self.at(20, "work", "enter")])
        #expect(result.disagreements == [])
    }

    @Test func theNearestPairsFirst() {
        // Two phone exits 4 minutes apart (a flap the server did not see): the server's exit pairs
        // with the nearer one, and the other is the phone's alone.
        let result = Self.compare(
            [Self.at(0, "home", "exit"), Self.at(120, "home", "enter"), Self.at(240, "home", "exit")],
            [Self.at(250, "home", "exit")])
        #expect(result.agreed.map(\.phone) == [Self.at(240, "home", "exit")])
        #expect(result.disagreements.map(\.reason) == [.serverHeld, .serverHeld])
    }
}
