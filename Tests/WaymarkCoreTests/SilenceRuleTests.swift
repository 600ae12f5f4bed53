import Testing
import WaymarkCore

@Suite struct SilenceRuleTests {
    static let origin = Coordinate(latitude: 46.05, longitude: 14.5)
    static let start = Timestamp(secondsSince1970: 1_700_000_000)

    static func fix(north metres: Double, at seconds: Double?) -> Fix {
        Fix(
            time: seconds.map { start.adding(seconds: $0) },
            coordinate: Geodesic.destination(from: origin, azimuth: 0, distance: metres))
    }

    /// 300 s is no silence, 301 s is; 100 m is within (inclusive, up to geodesic round-off),
    /// 100.5 m is not.
    @Test(arguments: [
        (300.0, 5000.0, SilenceRule.Verdict.continuous),
        (300.5, 0, .stay(seconds: 300.5)),
        (1500, 99.5, .stay(seconds: 1500)),
        (1500, 100.5, .gap(seconds: 1500)),
        (86_400, 20_000, .gap(seconds: 86_400)),
    ])
    func judges(seconds: Double, metres: Double, expected: SilenceRule.Verdict) {
        #expect(SilenceRule.standard.judge(from: Self.fix(north: 0, at: 0), to: Self.fix(north: metres, at: seconds)) == expected)
    }

    @Test func untimedFixesHaveNoSilences() {
        #expect(SilenceRule.standard.judge(from: Self.fix(north: 0, at: nil), to: Self.fix(north: 9000, at: 4000)) == .continuous)
        #expect(SilenceRule.standard.judge(from: Self.fix(north: 0, at: 0), to: Self.fix(north: 9000, at: nil)) == .continuous)
    }

    @Test func aVisitsOwnRadiusDecides() {
        let rule = SilenceRule(radius: 30)
        #expect(rule.judge(from: Self.fix(north: 0, at: 0), to: Self.fix(north: 29, at: 600)) == .stay(seconds: 600))
        #expect(rule.judge(from: Self.fix(north: 0, at: 0), to: Self.fix(north: 31, at: 600)) == .gap(seconds: 600))
    }
}
