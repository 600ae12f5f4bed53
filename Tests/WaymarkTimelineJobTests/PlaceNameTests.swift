import Testing
import WaymarkTimelineJob

@Suite struct PlaceNameTests {
    @Test func withoutPlaceDataTimesAreUTC() {
        #expect(PlaceName(label: "52.5, 13.4", region: nil, lookup: nil).timeZone == "UTC")
    }
}
