import Testing
import WaymarkSources

/// Bodies the decoder refuses: each names the code, the member's path and the exact message.
@Suite struct OwnTracksDecoderErrorTests {
    struct Bad: Sendable, CustomTestStringConvertible {
        var body: String
        var code: OwnTracksError.Code
        /// `field: message`, as the listener would show it.
        var description: String
        var testDescription: String { description }

        init(_ body: String, _ code: OwnTracksError.Code, _ description: String) {
            self.body = body
            self.code = code
            self.description = description
        }
    }

    static func error(_ body: String) -> OwnTracksError? {
        do {
            _ = try OwnTracksDecoder.decode(Array(body.utf8))
            return nil
        } catch {
            return error
        }
    }

    static let location = #""_type":"location""#

    static let cases: [Bad] = [
        // The body as a whole.
        Bad("", .emptyBody, "the body is empty; expected an OwnTracks JSON object or an array of them"),
        Bad(" \r\n\t", .emptyBody, "the body is empty; expected an OwnTracks JSON object or an array of them"),
        Bad("42", .notAnObject, #"_type: expected a JSON object with a "_type", got number"#),
        Bad(#""location""#, .notAnObject, #"_type: expected a JSON object with a "_type", got string"#),
        Bad(#"[{"_type":"lwt","tst":1},[]]"#, .notAnObject, #"[1]._type: expected a JSON object with a "_type", got array"#),
        Bad(#"{"lat":1,"lon":2,"tst":3}"#, .missingType, #"_type: missing (every OwnTracks message names its kind, e.g. "location")"#),
        Bad(#"{"_type":5}"#, .wrongType, "_type: expected a string, got number"),
        Bad(#"{"_type":null}"#, .wrongType, "_type: expected a string, got null"),
        // location: required members and their ranges.
        Bad(#"{\#(location),"lon":2,"tst":3}"#, .missingMember, "lat: missing (a location needs a position)"),
        Bad(#"{\#(location),"lat":1,"tst":3}"#, .missingMember, "lon: missing (a location needs a position)"),
        Bad(#"{\#(location),"lat":1,"lon":2}"#, .missingMember, "tst: missing (a location needs a time)"),
        Bad(#"{\#(location),"lat":91,"lon":2,"tst":3}"#, .outOfRange, "lat: expected a number between -90 and 90, got 91"),
        Bad(#"{\#(location),"lat":91.5,"lon":2,"tst":3}"#, .outOfRange, "lat: expected a number between -90 and 90, got 91.5"),
        Bad(#"{\#(location),"lat":-90.000001,"lon":2,"tst":3}"#, .outOfRange, "lat: expected a number between -90 and 90, got -90.000001"),
        Bad(#"{\#(location),"lat":1,"lon":-181,"tst":3}"#, .outOfRange, "lon: expected a number between -180 and 180, got -181"),
        Bad(#"{\#(location),"lat":1,"lon":180.5,"tst":3}"#, .outOfRange, "lon: expected a number between -180 and 180, got 180.5"),
        Bad(#"{\#(location),"lat":"48.85","lon":2,"tst":3}"#, .wrongType, "lat: expected a number between -90 and 90, got string"),
        Bad(#"{\#(location),"lat":null,"lon":2,"tst":3}"#, .wrongType, "lat: expected a number between -90 and 90, got null"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":"1714557600"}"#, .wrongType,
            "tst: expected a number of UNIX seconds between 0 and 9223372036, got string"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":-1}"#, .outOfRange,
            "tst: expected a number of UNIX seconds between 0 and 9223372036, got -1"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":9223372037}"#, .outOfRange,
            "tst: expected a number of UNIX seconds between 0 and 9223372036, got 9223372037"),
        // Huge literals: a Double overflows to infinity, which is out of every range.
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":1e300}"#, .outOfRange,
            "tst: expected a number of UNIX seconds between 0 and 9223372036, got 1e300"),
        Bad(#"{\#(location),"lat":1e400,"lon":2,"tst":3}"#, .outOfRange, "lat: expected a number between -90 and 90, got 1e400"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"alt":-1e400}"#, .outOfRange, "alt: expected a number of metres between -12000 and 100000, got -1e400"),
        // location: optional members.
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"vel":-1}"#, .outOfRange, "vel: expected a speed in km/h between 0 and 40320, got -1"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"acc":"5"}"#, .wrongType, "acc: expected a number of metres between 0 and 1000000, got string"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"acc":-5}"#, .outOfRange, "acc: expected a number of metres between 0 and 1000000, got -5"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"vac":true}"#, .wrongType, "vac: expected a number of metres between 0 and 1000000, got boolean"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":3,"cog":360.5}"#, .outOfRange,
            "cog: expected a number of degrees between 0 and 360, got 360.5"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"cog":-1}"#, .outOfRange, "cog: expected a number of degrees between 0 and 360, got -1"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":3,"batt":101}"#, .outOfRange,
            "batt: expected a whole number between 0 and 100 (percent), got 101"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":3,"batt":55.5}"#, .invalidValue,
            "batt: expected a whole number between 0 and 100 (percent), got 55.5"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":3,"bs":4}"#, .outOfRange,
            "bs: expected 0, 1, 2 or 3 (unknown, unplugged, charging, full), got 4"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":3,"m":1.5}"#, .invalidValue,
            "m: expected a whole number between -2147483648 and 2147483647, got 1.5"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"p":-0.5}"#, .outOfRange, "p: expected a pressure in kPa between 0 and 1000, got -0.5"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"t":1}"#, .wrongType, "t: expected a string, got number"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"inregions":"Home"}"#, .wrongType, "inregions: expected an array of strings, got string"),
        Bad(#"{\#(location),"lat":1,"lon":2,"tst":3,"inrids":["a",3]}"#, .wrongType, "inrids[1]: expected a string, got number"),
        Bad(
            #"{\#(location),"lat":1,"lon":2,"tst":3,"created_at":"now"}"#, .wrongType,
            "created_at: expected a number of UNIX seconds between 0 and 9223372036, got string"),
        Bad(#"{\#(location),"lat":1,"lat":2,"lon":2,"tst":3}"#, .repeatedMember, "lat: given twice; send each member once"),
        // transition.
        Bad(#"{"_type":"transition","tst":3}"#, .missingMember, #"event: missing (a transition is an "enter" or a "leave")"#),
        Bad(#"{"_type":"transition","event":"exit","tst":3}"#, .invalidValue, #"event: expected "enter" or "leave", got "exit""#),
        Bad(#"{"_type":"transition","event":1,"tst":3}"#, .wrongType, #"event: expected "enter" or "leave", got number"#),
        Bad(#"{"_type":"transition","event":"enter"}"#, .missingMember, "tst: missing (a transition needs a time)"),
        Bad(#"{"_type":"transition","event":"enter","tst":3,"lat":1}"#, .missingMember, "lon: missing (lat is given; a position needs both)"),
        Bad(#"{"_type":"transition","event":"enter","tst":3,"lon":1}"#, .missingMember, "lat: missing (lon is given; a position needs both)"),
        Bad(#"{"_type":"transition","event":"enter","tst":3,"acc":-2}"#, .outOfRange, "acc: expected a number of metres between 0 and 1000000, got -2"),
        // waypoint(s): the booklet's example with quoted numbers is refused (see OwnTracksObjectReader).
        Bad(
            #"{"_type":"waypoint","desc":"Paris","lat":"48.858330","lon":"2.295130","rad":"50","tst":"1385997757"}"#, .wrongType,
            "lat: expected a number between -90 and 90, got string"),
        Bad(#"{"_type":"waypoint","lat":1,"lon":2,"tst":3}"#, .missingMember, "desc: missing (a waypoint needs its region's name)"),
        Bad(#"{"_type":"waypoint","desc":"Home"}"#, .missingMember, "tst: missing (the app identifies a waypoint by its creation time)"),
        Bad(#"{"_type":"waypoint","desc":"Home","tst":3,"rad":-1}"#, .outOfRange, "rad: expected a number of metres between 0 and 1000000, got -1"),
        Bad(
            #"{"_type":"waypoint","desc":"Hall","tst":3,"uuid":"E2C56DB5-DFFB"}"#, .invalidValue,
            #"uuid: expected a UUID like E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, got "E2C56DB5-DFFB""#),
        Bad(#"{"_type":"waypoint","desc":"Hall","tst":3,"major":1}"#, .missingMember, "uuid: missing (major and minor need the beacon's uuid)"),
        Bad(
            #"{"_type":"waypoint","desc":"Hall","tst":3,"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":65536}"#, .outOfRange,
            "minor: expected a whole number between 0 and 65535, got 65536"),
        Bad(#"{"_type":"waypoints"}"#, .missingMember, "waypoints: missing (a waypoints message carries the list of waypoints)"),
        Bad(#"{"_type":"waypoints","waypoints":{}}"#, .wrongType, "waypoints: expected an array of waypoint objects, got object"),
        Bad(#"{"_type":"waypoints","waypoints":[1]}"#, .notAnObject, "waypoints[0]: expected a waypoint object, got number"),
        Bad(
            #"{"_type":"waypoints","waypoints":[{"desc":"A","tst":1},{"_type":"location","desc":"B","tst":2}]}"#, .invalidValue,
            #"waypoints[1]._type: expected "waypoint", got "location""#),
        Bad(
            #"{"_type":"waypoints","waypoints":[{"desc":"A","tst":1},{"desc":"B","tst":2,"lat":95,"lon":0}]}"#, .outOfRange,
            "waypoints[1].lat: expected a number between -90 and 90, got 95"),
        // lwt, beacon.
        Bad(#"{"_type":"lwt"}"#, .missingMember, "tst: missing (a last will says when the app connected)"),
        Bad(
            #"{"_type":"beacon","major":1,"minor":2,"tst":3}"#, .missingMember,
            "uuid: missing (a beacon is identified by uuid, major and minor)"),
        Bad(
            #"{"_type":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":2,"tst":3}"#, .missingMember,
            "major: missing (a beacon is identified by uuid, major and minor)"),
        Bad(
            #"{"_type":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"tst":3,"prox":4}"#,
            .outOfRange, "prox: expected 0, 1, 2 or 3 (unknown, immediate, near, far), got 4"),
        // card.
        Bad(#"{"_type":"card","face":42}"#, .wrongType, "face: expected a string, got number"),
        // A batch fails on its first bad message, named by index.
        Bad(
            #"[{"_type":"lwt","tst":1},{"_type":"location","lat":1,"lon":2}]"#, .missingMember,
            "[1].tst: missing (a location needs a time)"),
        Bad(
            #"[{"_type":"waypoints","waypoints":[{"desc":"A"}]}]"#, .missingMember,
            "[0].waypoints[0].tst: missing (the app identifies a waypoint by its creation time)"),
    ]

    @Test("each refused body names the code, the member and the reason", arguments: cases)
    func refused(bad: Bad) throws {
        let error = try #require(Self.error(bad.body))
        #expect(error.code == bad.code)
        #expect(error.description == bad.description)
    }

    @Test func fieldIsThePathAndDescriptionJoinsIt() throws {
        let error = try #require(Self.error(#"[{"_type":"lwt","tst":1},{"_type":"location","lat":1,"lon":-181,"tst":2}]"#))
        #expect(error.field == "[1].lon")
        #expect(error.message == "expected a number between -180 and 180, got -181")
    }

    @Test func errorsPointAtTheOffendingValue() throws {
        let body = "{\n  \"_type\": \"location\",\n  \"lat\": 91.5,\n  \"lon\": 2, \"tst\": 3\n}"
        let error = try #require(Self.error(body))
        #expect(error.line == 3)
        #expect(error.column == 10)
        let missing = try #require(Self.error("\n\n   {\"_type\":\"lwt\"}"))
        #expect(missing.line == 3)
        #expect(missing.column == 4)
    }

    @Test func syntaxErrorsSayLineAndColumn() throws {
        let error = try #require(Self.error("{\"_type\":\"location\",\n \"lat\": 1,,}"))
        #expect(error.code == .jsonSyntax)
        #expect(error.field == "")
        #expect(error.line == 2)
        #expect(error.column == 11)
        #expect(
            error.description
                == "invalid JSON at line 2, column 11: unexpected character ',' in an object; expected a member name in double quotes")
    }

    @Test func truncatedBodyIsASyntaxError() throws {
        let error = try #require(Self.error(#"{"_type":"location","lat":1"#))
        #expect(error.code == .jsonSyntax)
        #expect(error.description == "invalid JSON at line 1, column 28: unexpected end of input in an object opened at 1:1")
    }

    @Test func nanAndInfinityAreNotJSON() throws {
        for literal in ["NaN", "Infinity", "-Infinity"] {
            let error = try #require(Self.error(#"{"_type":"location","lat":\#(literal),"lon":0,"tst":0}"#))
            #expect(error.code == .jsonSyntax, "\(literal)")
            #expect(error.column == 27, "\(literal)")
        }
    }
}
