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

    /// What libgps decodes: TPV and SKY as gpsd writes them. The nested DEVICE objects the
    /// fuzzer hung gps_unpack with are not.
    @Test func onlyPlainTPVAndSKYReachLibgps() {
        func plain(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { JSONLineCheck.isPlainReport($0, classes: ["TPV", "SKY"]) }
        }
        #expect(plain(#"{"class":"TPV","mode":3,"lat":1,"lon":2}"#))
        #expect(plain(#"{"class":"SKY","satellites":[{"PRN":1,"used":true}]}"#))
        #expect(!plain(#"{"x":[{"class":"DEVICE"}]}"#))
        #expect(!plain(#"{"":"","":[{"class":"DEVICE","":"","":"","":1,"":1}]}"#))
        #expect(!plain(#"{"class":"SKY","satellites":[{"class":"DEVICE"}]}"#))
        #expect(!plain(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#))
        #expect(!plain(#"{"mode":3,"class":"TPV"}"#))
    }
}
