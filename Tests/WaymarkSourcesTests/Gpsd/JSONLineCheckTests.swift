import Testing

@testable import WaymarkSources

/// What reaches libgps' parser: exactly one well-formed JSON object a line.
struct JSONLineCheckTests {
    static func check(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { JSONLineCheck.isOneObject($0) }
    }

    @Test(arguments: [
        #"{"class":"TPV","mode":3,"lat":52.1,"lon":-5.2e-1,"eph":4.5}"#,
        #" {"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false}],"x":null} "#,
        #"{"class":"ERROR","message":"a \"quoted\" \\ \u00e9 word"}"#,
        "{}",
    ])
    func gpsdsLinesPass(line: String) {
        #expect(Self.check(line))
    }

    @Test(arguments: [
        #"{""},d"class":"TPV""#,  // the line that sent gps_unpack into a loop
        #"{"class":"TPV"} {"class":"TPV"}"#,
        #"{"class":"TPV","mode":3,"lat":"#,
        #"["class"]"#, #""class""#, "", "not json", #"{"a":tru}"#, #"{"a":01.}"#, #"{"a":"\x"}"#,
        "{\"a\":\"\u{1}\"}", #"{"a":1,}"#, #"{"a" 1}"#,
        String(repeating: #"{"a":"#, count: 70) + "1" + String(repeating: "}", count: 70),  // deeper than 64
    ])
    func otherLinesDoNot(line: String) {
        #expect(!Self.check(line))
    }
}
