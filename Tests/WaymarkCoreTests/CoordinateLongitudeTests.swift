import Testing
import WaymarkCore

@Suite struct CoordinateLongitudeTests {
    @Test func degreesEastGoTheShortWayRound() {
        #expect(Coordinate.degreesEast(from: 10, to: 12.5) == 2.5)
        #expect(abs(Coordinate.degreesEast(from: 179.9, to: -179.9) - 0.2) < 1e-9)
        #expect(abs(Coordinate.degreesEast(from: -179.9, to: 179.9) + 0.2) < 1e-9)
        #expect(Coordinate.degreesEast(from: 0, to: 180) == 180)
    }

    @Test func wrappingBringsALongitudeBackIntoRange() {
        #expect(abs(Coordinate.wrapped(longitude: 180.1) + 179.9) < 1e-9)
        #expect(abs(Coordinate.wrapped(longitude: -180.25) - 179.75) < 1e-9)
        #expect(Coordinate.wrapped(longitude: 42) == 42)
    }
}
