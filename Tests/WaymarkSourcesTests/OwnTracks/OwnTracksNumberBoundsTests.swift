import Testing
import WaymarkSources

/// Issue 48: numbers no phone can report are refused at the decoder (a located 400), so none is
/// stored to crash an output later. Each bound is tested just inside and just outside.
@Suite struct OwnTracksNumberBoundsTests {
    static let location = #"{"_type":"location","lat":1,"lon":2,"tst":3"#

    static let bounds: [NumberBound] = [
        NumberBound("acc", inside: "1000000", outside: "1e308", "expected a number of metres between 0 and 1000000"),
        NumberBound("vac", inside: "1000000", outside: "1000000.5", "expected a number of metres between 0 and 1000000"),
        NumberBound("alt", inside: "100000", outside: "1e308", "expected a number of metres between -12000 and 100000"),
        NumberBound("alt", inside: "-12000", outside: "-12000.1", "expected a number of metres between -12000 and 100000"),
        NumberBound("vel", inside: "40320", outside: "1e308", "expected a speed in km/h between 0 and 40320"),
        NumberBound("p", inside: "1000", outside: "1e308", "expected a pressure in kPa between 0 and 1000"),
        NumberBound("tst", inside: "9223372036", outside: "9223372037", "expected a number of UNIX seconds between 0 and 9223372036"),
    ]

    static func decode(_ body: String) throws(OwnTracksError) {
        _ = try OwnTracksDecoder.decode(Array(body.utf8))
    }

    @Test("each bound admits its edge and refuses past it, naming the member", arguments: bounds)
    func bound(_ bound: NumberBound) throws {
        let base = bound.name == "tst" ? #"{"_type":"location","lat":1,"lon":2"# : Self.location
        try Self.decode(base + #","\#(bound.name)":\#(bound.inside)}"#)
        do {
            try Self.decode(base + #","\#(bound.name)":\#(bound.outside)}"#)
            Issue.record("\(bound.name)=\(bound.outside) was accepted")
        } catch {
            #expect(error.code == .outOfRange)
            #expect(error.field == bound.name)
            #expect(error.message == "\(bound.message), got \(bound.outside)")
        }
    }

    @Test func anOutOfRangeNumberIsLocated() throws {
        let body = "{\"_type\":\"location\",\n\"lat\":1,\"lon\":2,\"tst\":3,\n  \"acc\": 1e308}"
        do {
            try Self.decode(body)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "acc: expected a number of metres between 0 and 1000000, got 1e308")
            #expect(error.line == 3)
            #expect(error.column == 10)
        }
    }

    @Test func aTransitionAndAWaypointAreBoundedToo() throws {
        #expect(throws: OwnTracksError.self) { try Self.decode(#"{"_type":"transition","event":"enter","tst":3,"acc":1e308}"#) }
        #expect(throws: OwnTracksError.self) { try Self.decode(#"{"_type":"waypoint","desc":"Home","tst":3,"rad":1e308}"#) }
        #expect(throws: OwnTracksError.self) {
            try Self.decode(#"{"_type":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"tst":3,"acc":1e308}"#)
        }
        try Self.decode(#"{"_type":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"tst":3,"acc":-1}"#)
    }
}
