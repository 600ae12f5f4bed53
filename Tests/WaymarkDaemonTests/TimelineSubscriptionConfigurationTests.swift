import Testing
import WaymarkDaemon
import WaymarkServices

/// A subscription's `timeline` key (docs/timeline/events.md): stays and trips as events.
@Suite struct TimelineSubscriptionConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func trueAsksForTheTimelineWithTheVisitRulesDefaults() throws {
        let configuration = try parse("subscriptions:\n  day:\n    timeline: true\n")
        #expect(configuration.subscriptions[0].services == ServiceSubscription(timeline: VisitThresholds()))
        #expect(!configuration.subscriptions[0].services.isEmpty, "the timeline alone is a service")
    }

    @Test func aMappingSetsTheRadiusAndMinimumDurationBesideVisits() throws {
        let configuration = try parse("""
            subscriptions:
              day:
                visits: true
                timeline: { radius: 150, minimum_duration: 600 }
            """)
        let services = configuration.subscriptions[0].services
        #expect(services.timeline == VisitThresholds(radius: 150, minimumDuration: 600))
        #expect(services.visits == VisitThresholds())
        #expect(services.makeServices().count == 2)
    }

    @Test func falseTurnsTheTimelineOff() throws {
        let configuration = try parse("subscriptions:\n  s:\n    timeline: false\n    visits: true\n")
        #expect(configuration.subscriptions[0].services == ServiceSubscription(visits: VisitThresholds()))
    }

    /// The unknown-key message lists `timeline` among the keys a subscription takes.
    @Test func anUnknownKeyListsTimeline() {
        #expect {
            _ = try parse("subscriptions:\n  s:\n    timelines: true\n")
        } throws: { error in
            String(describing: error).contains("timeline")
        }
    }
}
