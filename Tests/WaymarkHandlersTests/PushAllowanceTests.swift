import Testing
import WaymarkCore
import WaymarkHandlers

/// Pushes per handler (docs/semantics.md §1.5): five at once, then one per 10 s.
@Suite struct PushAllowanceTests {
    static func at(_ seconds: Double) -> Timestamp { Timestamp(nanosecondsSince1970: 1_700_000_000_000_000_000 + Int64(seconds * 1e9)) }

    @Test func fiveAtOnceThenOnePerTenSeconds() {
        var allowance = PushAllowance()
        for _ in 0..<5 { #expect(allowance.take(at: Self.at(0)) == nil) }
        #expect(allowance.take(at: Self.at(0)) == 10)
        #expect(allowance.take(at: Self.at(4)) == 6)
        #expect(allowance.take(at: Self.at(10)) == nil)
        #expect(allowance.take(at: Self.at(10)) == 10)
        // A long quiet spell refills the burst, no more.
        for _ in 0..<5 { #expect(allowance.take(at: Self.at(1_000)) == nil) }
        #expect(allowance.take(at: Self.at(1_000)) != nil)
    }

    @Test func aClockGoingBackGivesNothingExtra() {
        var allowance = PushAllowance()
        for _ in 0..<5 { _ = allowance.take(at: Self.at(100)) }
        #expect(allowance.take(at: Self.at(50)) != nil)
    }
}
