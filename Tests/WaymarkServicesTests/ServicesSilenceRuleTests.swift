import Testing
import WaymarkCore
@testable import WaymarkServices

/// The silence rule is a pipeline setting (`silence.threshold`, docs/configuration.md): the
/// services a subscription makes judge silences by the rule they are given, not a fixed 300 s.
@Suite struct ServicesSilenceRuleTests {
    static let patient = SilenceRule(threshold: 600)

    /// Paused, then a fix 70 m away 320 s later: under the standard rule a silence the device
    /// stayed through (the pause holds); with a 600 s threshold no silence, so 70 m is movement.
    @Test func aPauseJudgesTheSilenceByItsRule() {
        let fixes = [StandardTrack.fix(0, at: 0), StandardTrack.fix(5, at: 180), StandardTrack.fix(70, at: 500)]
        func kinds(_ silence: SilenceRule) -> [String] {
            var pipeline = SubscriptionPipeline(ServiceSubscription(standard: .init(pausesAutomatically: true)), silence: silence)
            return fixes.flatMap { fix -> [LocationRecord] in
                guard case .accepted(let records) = pipeline.process(fix) else { return [] }
                return records
            }.map(\.kind.rawValue)
        }
        #expect(kinds(.standard) == ["location", "paused"])
        #expect(kinds(Self.patient) == ["location", "paused", "resumed", "location"])
    }

    /// A visit: 7 minutes at a place, a last fix 60 m north; 400 s later a fix 90 m beyond it.
    /// Under the standard rule that silence was a stay (within 100 m of the last fix): the visit
    /// goes on. With a 600 s threshold there was no silence, and 150 m from the stay is a departure.
    @Test func aVisitJudgesTheSilenceByItsRule() {
        let fixes = (0...6).map { StandardTrack.fix(0, at: Double($0) * 60) } + [StandardTrack.fix(60, at: 420), StandardTrack.fix(150, at: 820)]
        func events(_ silence: SilenceRule) -> [String] {
            var pipeline = SubscriptionPipeline(ServiceSubscription(visits: VisitThresholds()), silence: silence)
            return fixes.flatMap { fix -> [LocationRecord] in
                guard case .accepted(let records) = pipeline.process(fix) else { return [] }
                return records
            }.compactMap { $0.visit?.event.rawValue }
        }
        #expect(events(.standard) == ["arrival"])
        #expect(events(Self.patient) == ["arrival", "departure"])
    }
}
