import Testing
import WaymarkDaemon
import WaymarkServices

/// The `subscriptions` section of the daemon's YAML configuration.
@Suite struct SubscriptionConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func aFullSubscriptionReadsEveryKey() throws {
        let configuration = try parse("""
            subscriptions:
              ride-log:
                standard:
                  desired_accuracy: 10
                  distance_filter: 50
                  pauses: true
                  defer_distance: 1000
                  defer_interval: 600
                significant_change: { distance: 800, interval: 120 }
                visits: { radius: 150, minimum_duration: 600 }
                activity: fitness
                precision: approximate
              coarse:
                significant_change: true
            """)
        #expect(configuration.subscriptions.map(\.name) == ["ride-log", "coarse"])
        let ride = configuration.subscriptions[0].services
        #expect(ride.standard == StandardUpdates.Configuration(
            desiredAccuracy: .tenMeters, distanceFilter: 50, pausesAutomatically: true, deferredDistance: 1000,
            deferredInterval: 600))
        #expect(ride.significantChange == SignificantChangeThresholds(minimumDistance: 800, minimumInterval: 120))
        #expect(ride.visits == VisitThresholds(radius: 150, minimumDuration: 600))
        #expect(ride.activity == .fitness)
        #expect(ride.isApproximate)
        let coarse = configuration.subscriptions[1].services
        #expect(coarse == ServiceSubscription(significantChange: SignificantChangeThresholds()))
    }

    @Test func falseTurnsAServiceOff() throws {
        let configuration = try parse("subscriptions:\n  s:\n    visits: true\n    standard: false\n")
        #expect(configuration.subscriptions[0].services == ServiceSubscription(visits: VisitThresholds()))
    }

    struct Bad: Sendable, CustomStringConvertible {
        let yaml: String
        let expected: String
        var description: String { expected }
    }

    static let bad: [Bad] = [
        .init(yaml: "subscriptions:\n  s:\n    signficant_change: true\n", expected: "waymark.yaml:3:5: subscriptions.s.signficant_change: unknown key"),
        .init(yaml: "subscriptions:\n  s:\n    standard: { desired_accuracy: 5 }\n", expected: "waymark.yaml:3:35: subscriptions.s.standard.desired_accuracy: '5' is not one of"),
        .init(yaml: "subscriptions:\n  s:\n    visits: { radius: -3 }\n", expected: "waymark.yaml:3:23: subscriptions.s.visits.radius: -3.0 must be greater than 0"),
        .init(yaml: "subscriptions:\n  s:\n    significant_change: often\n", expected: "waymark.yaml:3:25: subscriptions.s.significant_change: must be true, false or a mapping"),
        .init(yaml: "subscriptions:\n  s:\n    activity: skiing\n    visits: true\n", expected: "waymark.yaml:3:15: subscriptions.s.activity: 'skiing' is not one of"),
        .init(yaml: "subscriptions:\n  s:\n    precision: exact\n    visits: true\n", expected: "waymark.yaml:3:16: subscriptions.s.precision: 'exact' is not one of precise, approximate"),
        .init(yaml: "subscriptions:\n  s:\n    activity: fitness\n", expected: "waymark.yaml:3:5: subscriptions.s: asks for no service"),
        .init(yaml: "subscriptions:\n  my log:\n    visits: true\n", expected: "waymark.yaml:2:3: subscriptions.my log: a subscription name is"),
        .init(yaml: "subscriptions: [visits]\n", expected: "waymark.yaml:1:16: subscriptions: must be a mapping of keys"),
        // The timeline's key (docs/timeline/events.md) is read as visits' is.
        .init(yaml: "subscriptions:\n  s:\n    timeline: { radius: 0 }\n", expected: "waymark.yaml:3:25: subscriptions.s.timeline.radius: 0.0 must be greater than 0"),
        .init(yaml: "subscriptions:\n  s:\n    timeline: { minimum_duration: soon }\n", expected: "waymark.yaml:3:35: subscriptions.s.timeline.minimum_duration:"),
        .init(yaml: "subscriptions:\n  s:\n    timeline: { radious: 100 }\n", expected: "waymark.yaml:3:17: subscriptions.s.timeline.radious: unknown key"),
        .init(yaml: "subscriptions:\n  s:\n    timeline: yes please\n", expected: "waymark.yaml:3:15: subscriptions.s.timeline: must be true, false or a mapping"),
        .init(yaml: "subscriptions:\n  s:\n    timelines: true\n", expected: "waymark.yaml:3:5: subscriptions.s.timelines: unknown key"),
        .init(yaml: "subscriptions:\n  s:\n    timeline: false\n", expected: "waymark.yaml:3:5: subscriptions.s: asks for no service: give standard, significant_change, visits or timeline"),
    ]

    @Test(arguments: bad)
    func aBadSubscriptionNamesFileLineColumnAndKey(_ bad: Bad) {
        #expect {
            _ = try parse(bad.yaml)
        } throws: { error in
            String(describing: error).hasPrefix(bad.expected)
        }
    }
}
