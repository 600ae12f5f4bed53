import Testing
import WaymarkCore

/// Issue 48: converting a Double to an Int never traps.
@Suite struct DoubleCheckedIntegerTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308, -1e308, 9.3e18, -9.3e18])
    func aValueNoIntHoldsIsNil(_ value: Double) {
        #expect(value.roundedInteger() == nil)
        #expect(value.roundedInteger(.up) == nil)
    }

    @Test func representableValuesRound() {
        #expect(2.5.roundedInteger() == 3)
        #expect(2.1.roundedInteger(.up) == 3)
        #expect((-2.5).roundedInteger(.down) == -3)
        #expect(Double.leastNonzeroMagnitude.roundedInteger() == 0)
        #expect((-9.2e18).roundedInteger() == -9_200_000_000_000_000_000)
    }

    @Test func clampingSaturatesAndRefusesOnlyNaN() {
        #expect(1e308.roundedInteger(clampedTo: 0...255) == 255)
        #expect((-Double.infinity).roundedInteger(clampedTo: 0...255) == 0)
        #expect(Double.infinity.roundedInteger(clampedTo: Int.min...Int.max) == Int.max)
        #expect((-1e300).roundedInteger(clampedTo: Int.min...Int.max) == Int.min)
        #expect(Double.nan.roundedInteger(clampedTo: 0...255) == nil)
        #expect(127.4.roundedInteger(clampedTo: 0...255) == 127)
    }
}
