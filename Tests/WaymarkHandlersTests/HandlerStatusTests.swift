import Foundation
import Testing
import WaymarkHandlers

/// `GET /v1/handlers` objects (docs/openapi.yaml, HandlerList): what is always there, what only
/// a daemon fills in, and a round trip through the CLI's decoder.
@Suite struct HandlerStatusTests {
    static let fromStore = HandlerStatus(
        name: "hut-log", state: "notRunning", forceQuit: false, executable: "/usr/local/bin/hut", eventsQueued: 3,
        eventsUnacknowledged: 1, budgetSeconds: 10, maximumBackgroundSeconds: 180, standing: .init(HandlerStanding()))

    @Test func withoutADaemonPidAndMedianAreNullAndCountersAbsent() {
        let json = Self.fromStore.json
        #expect(json.hasPrefix(#"{"budgetSeconds":10,"eventsQueued":3,"eventsUnacknowledged":1,"executable":"/usr/local/bin/hut","#))
        #expect(json.contains(#""pid":null"#))
        #expect(json.contains(#""medianQuickSeconds":null"#))
        #expect(!json.contains("launches"))
        #expect(!json.contains("stateSeconds"))
        #expect(!json.contains("suspension"))
    }

    @Test func aDaemonsStatusSurvivesTheRoundTrip() throws {
        var status = Self.fromStore
        status.pid = 4242
        status.stateSeconds = 1.5
        status.counters = .init(launches: 2, resumes: 1, suspensions: 1, terminations: 0, crashes: 1)
        status.suspension = "cgroup"
        let json = status.json
        for field in [
            #""launches":2"#, #""resumes":1"#, #""suspensions":1"#, #""terminations":0"#, #""crashes":1"#, #""pid":4242"#, #""suspension":"cgroup""#,
        ] {
            #expect(json.contains(field))
        }
        #expect(try JSONDecoder().decode(HandlerStatus.self, from: Data(json.utf8)) == status)
        #expect(try JSONDecoder().decode(HandlerStatus.self, from: Data(Self.fromStore.json.utf8)) == Self.fromStore)
    }
}
