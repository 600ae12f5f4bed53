import Testing
import WaymarkPlaces

@Suite struct PlaceDataErrorTests {
    @Test func namesTheOffset() {
        #expect(PlaceDataError("bad magic", offset: 0).description == "bad magic (at byte 0)")
        #expect(PlaceDataError("truncated").description == "truncated")
    }
}
