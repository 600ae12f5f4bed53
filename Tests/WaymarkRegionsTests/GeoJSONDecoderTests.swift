import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

private let goodFeature =
    #"{"type":"Feature","id":"ok","properties":{"name":"Good"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#

/// A FeatureCollection whose second feature (index 1) is alone on line 3.
private func collection(_ bad: String) -> String {
    "{\"type\":\"FeatureCollection\",\"features\":[\n" + goodFeature + ",\n" + bad + "\n]}\n"
}

struct BadFeature: Sendable, CustomTestStringConvertible {
    var code: GeoJSONError.Code
    var feature: String
    var path: String
    /// The offending value's text: the error's column is where it first occurs on line 3.
    var at: String
    var message: String
    var testDescription: String { "\(code.rawValue): \(path)" }
}

private func polygonFeature(_ coordinates: String, id: String = #""x""#) -> String {
    #"{"type":"Feature","id":"# + id + #","properties":{},"geometry":{"type":"Polygon","coordinates":"# + coordinates + "}}"
}

private let badFeatures: [BadFeature] = [
    // RegionLimits: what a hostile or mistaken input may not store.
    BadFeature(
        code: .invalidIdentifier, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,0]]]", id: #""a\u0000b""#),
        path: "features[1].id", at: #""a\u0000b""#, message: "control character U+0000"),
    BadFeature(
        code: .invalidIdentifier, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,0]]]", id: #""../etc""#),
        path: "features[1].id", at: #""../etc""#, message: "'..' path segment"),
    BadFeature(
        code: .invalidIdentifier, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,0]]]", id: "\"" + String(repeating: "x", count: 257) + "\""),
        path: "features[1].id", at: "\"xxx", message: "257 bytes; at most 256"),
    BadFeature(
        code: .invalidRadius,
        feature: #"{"type":"Feature","id":"x","properties":{"radius":1e308},"geometry":{"type":"Point","coordinates":[5,5]}}"#,
        path: "features[1].properties.radius", at: "1e308", message: "at most 1000000"),
    BadFeature(
        code: .ringTooShort, feature: polygonFeature("[[[0,0],[1,0],[0,0]]]"),
        path: "features[1].geometry.coordinates[0]", at: "[[0,0],[1,0],[0,0]]",
        message: "ring has 3 positions; a ring needs at least 4"),
    BadFeature(
        code: .ringNotClosed, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,1]]]"),
        path: "features[1].geometry.coordinates[0]", at: "[[0,0],[1,0],[1,1],[0,1]]", message: "ring is not closed"),
    BadFeature(
        code: .ringTooShort, feature: polygonFeature("[[[0,0],[5,0],[5,5],[0,0]],[[1,1],[2,1],[1,1]]]"),
        path: "features[1].geometry.coordinates[1]", at: "[[1,1],[2,1],[1,1]]", message: "ring has 3 positions"),
    BadFeature(
        code: .latitudeOutOfRange, feature: polygonFeature("[[[0,0],[1,0],[1,91],[0,0]]]"),
        path: "features[1].geometry.coordinates[0][2][1]", at: "91", message: "latitude 91 is outside -90…90"),
    BadFeature(
        code: .longitudeOutOfRange, feature: polygonFeature("[[[0,0],[-180.5,0],[1,1],[0,0]]]"),
        path: "features[1].geometry.coordinates[0][1][0]", at: "-180.5", message: "longitude -180.5 is outside"),
    BadFeature(
        code: .invalidPosition, feature: polygonFeature(#"[[[0,0],[1,"0"],[1,1],[0,0]]]"#),
        path: "features[1].geometry.coordinates[0][1][1]", at: #""0""#, message: "latitude is a string"),
    BadFeature(
        code: .invalidPosition, feature: polygonFeature("[[[0,0],[1],[1,1],[0,0]]]"),
        path: "features[1].geometry.coordinates[0][1]", at: "[1]", message: "a position must be an array"),
    BadFeature(
        code: .wrongType, feature: polygonFeature(#""none""#),
        path: "features[1].geometry.coordinates", at: #""none""#, message: "must be an array"),
    BadFeature(
        code: .emptyGeometry,
        feature: #"{"type":"Feature","id":"x","geometry":{"type":"MultiPolygon","coordinates":[]}}"#,
        path: "features[1].geometry.coordinates", at: "[]", message: "no polygons"),
    BadFeature(
        code: .missingRadius,
        feature: #"{"type":"Feature","id":"x","properties":{"r":1},"geometry":{"type":"Point","coordinates":[5,5]}}"#,
        path: "features[1].properties", at: #"{"r":1}"#, message: "needs properties.radius"),
    BadFeature(
        code: .invalidRadius,
        feature: #"{"type":"Feature","id":"x","properties":{"radius":-5},"geometry":{"type":"Point","coordinates":[5,5]}}"#,
        path: "features[1].properties.radius", at: "-5", message: "> 0 and at most 1000000, not -5"),
    BadFeature(
        code: .invalidRadius,
        feature: #"{"type":"Feature","id":"x","properties":{"radius":"big"},"geometry":{"type":"Point","coordinates":[5,5]}}"#,
        path: "features[1].properties.radius", at: #""big""#, message: "radius is a string"),
    BadFeature(
        code: .latitudeOutOfRange,
        feature: #"{"type":"Feature","id":"x","properties":{"radius":10},"geometry":{"type":"Point","coordinates":[5,-95]}}"#,
        path: "features[1].geometry.coordinates[1]", at: "-95", message: "latitude -95"),
    BadFeature(
        code: .unsupportedGeometry,
        feature: #"{"type":"Feature","id":"x","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#,
        path: "features[1].geometry.type", at: #""LineString""#, message: "a LineString cannot be a region"),
    BadFeature(
        code: .unsupportedGeometry, feature: #"{"type":"Feature","id":"x","geometry":null}"#,
        path: "features[1].geometry", at: "null", message: "geometry is null"),
    BadFeature(
        code: .missingMember, feature: #"{"type":"Feature","id":"x"}"#, path: "features[1]", at: "{",
        message: "no \"geometry\""),
    BadFeature(
        code: .missingIdentifier,
        feature: #"{"type":"Feature","properties":{"kind":"park"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#,
        path: "features[1]", at: "{", message: "has no identifier"),
    BadFeature(
        code: .invalidIdentifier, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,0]]]", id: "true"),
        path: "features[1].id", at: "true", message: "identifier is a boolean"),
    BadFeature(
        code: .invalidIdentifier, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,0]]]", id: #""""#),
        path: "features[1].id", at: #""""#, message: "empty string"),
    BadFeature(
        code: .duplicateIdentifier, feature: polygonFeature("[[[0,0],[1,0],[1,1],[0,0]]]", id: #""ok""#),
        path: "features[1]", at: #""ok""#, message: "duplicate identifier \"ok\"; first used by features[0] at bad.geojson:2:"),
    BadFeature(
        code: .notGeoJSON, feature: #"{"type":"Topology"}"#, path: "features[1].type", at: #""Topology""#,
        message: "expected a Feature"),
    BadFeature(
        code: .wrongType, feature: "42", path: "features[1]", at: "42", message: "expected an object"),
    BadFeature(
        code: .invalidOption,
        feature: #"{"type":"Feature","id":"x","properties":{"radius":5,"notifyOnExit":"yes"},"geometry":{"type":"Point","coordinates":[1,1]}}"#,
        path: "features[1].properties.notifyOnExit", at: #""yes""#, message: "properties.notifyOnExit is a string; expected true or false"),
    BadFeature(
        code: .invalidOption,
        feature: #"{"type":"Feature","id":"x","properties":{"radius":50,"loiteringDelay":-5},"geometry":{"type":"Point","coordinates":[1,1]}}"#,
        path: "features[1].properties.loiteringDelay", at: "-5", message: "must be a finite number of seconds ≥ 0"),
    BadFeature(
        code: .invalidOption,
        feature: #"{"type":"Feature","id":"x","properties":{"hysteresis":"far"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#,
        path: "features[1].properties.hysteresis", at: #""far""#, message: "number of metres"),
]

@Test("monitoring options come from the feature's properties")
func monitoringOptions() throws {
    let text = #"{"type":"Feature","id":"hut","properties":{"radius":80,"notifyOnEntry":false,"loiteringDelay":300,"hysteresis":15,"confirmationTime":10,"initialTrigger":true,"notifyOnExit":null},"geometry":{"type":"Point","coordinates":[11.5,48.1]}}"#
    let region = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "hut.geojson")[0].region
    #expect(region.options == RegionOptions(
        notifyOnEntry: false, notifyOnExit: true, loiteringDelay: 300, hysteresis: 15, confirmationTime: 10, initialTrigger: true))
}

@Test("bad features: code, JSON path, line:column and message", arguments: badFeatures)
func badFeature(_ c: BadFeature) throws {
    try expectLine3Error(collection(c.feature), code: c.code, path: c.path, at: c.at, message: c.message)
}

/// Decodes `text` as `bad.geojson` and checks the error: its code, JSON path, feature 1, and a
/// location on line 3 at the first occurrence of `at` there.
func expectLine3Error(_ text: String, code: GeoJSONError.Code, path: String, at: String, message: String) throws {
    let line3 = text.split(separator: "\n", omittingEmptySubsequences: false)[2]
    let column = try #require(line3.firstRange(of: at)).lowerBound.utf16Offset(in: line3) - line3.startIndex.utf16Offset(in: line3) + 1
    do {
        _ = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "bad.geojson")
        Issue.record("accepted a bad feature")
    } catch {
        #expect(error.code == code)
        #expect(error.path == path)
        #expect(error.featureIndex == 1)
        #expect(error.location == SourceLocation(file: "bad.geojson", line: 3, column: column))
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.description.hasPrefix("bad.geojson:3:\(column): \(path)"), "\(error.description)")
    }
}

@Test("the description reads like a compiler diagnostic and names the feature")
func descriptionFormat() {
    let text = collection(polygonFeature("[[[0,0],[1,0],[0,0]]]", id: #""Lake""#))
    #expect(throws: GeoJSONError.self) { try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "lakes.geojson") }
    do {
        _ = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "lakes.geojson")
    } catch {
        #expect(
            error.description
                == #"lakes.geojson:3:91: features[1].geometry.coordinates[0] (feature "Lake"): ring has 3 positions; a ring needs at least 4"#)
    }
}

struct DocumentCase: Sendable, CustomTestStringConvertible {
    var text: String
    var code: GeoJSONError.Code
    var line: Int
    var column: Int
    var testDescription: String { code.rawValue }
}

@Test(
    "documents that are not region collections",
    arguments: [
        DocumentCase(text: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#, code: .bareGeometry, line: 1, column: 1),
        DocumentCase(text: "[1, 2]", code: .notGeoJSON, line: 1, column: 1),
        DocumentCase(text: "{\n  \"type\": \"Blob\"}", code: .notGeoJSON, line: 2, column: 11),
        DocumentCase(text: #"{"features": []}"#, code: .missingMember, line: 1, column: 1),
        DocumentCase(text: #"{"type":"FeatureCollection"}"#, code: .missingMember, line: 1, column: 1),
        DocumentCase(text: "{\"type\":\"FeatureCollection\",\n\"features\":[\n{\"type\":\"Feature\",\"id\":1,,}]}", code: .jsonSyntax, line: 3, column: 26),
    ])
func badDocuments(_ c: DocumentCase) {
    do {
        _ = try GeoJSONRegionDecoder().decode(Array(c.text.utf8), file: "doc.json")
        Issue.record("accepted")
    } catch {
        #expect(error.code == c.code, "\(error)")
        #expect(error.location == SourceLocation(file: "doc.json", line: c.line, column: c.column), "\(error)")
    }
}

@Test("identifiers: id property, then id, then properties.identifier, then properties.name; numbers without .0")
func identifierRules() throws {
    func decode(_ properties: String, id: String? = nil, idProperty: String? = nil) throws -> String {
        let idMember = id.map { "\"id\":\($0)," } ?? ""
        let text = #"{"type":"Feature",\#(idMember)"properties":\#(properties),"geometry":{"type":"Point","coordinates":[1,2]}}"#
        return try GeoJSONRegionDecoder(idProperty: idProperty).decode(Array(text.utf8), file: "f.json")[0].region.identifier
    }
    #expect(try decode(#"{"radius":5,"name":"N","identifier":"I","code":7}"#, id: #""F""#, idProperty: "code") == "7")
    #expect(try decode(#"{"radius":5,"name":"N","identifier":"I"}"#, id: "12.0") == "12")
    #expect(try decode(#"{"radius":5,"name":"N","identifier":"I"}"#, id: "12.5") == "12.5")
    #expect(try decode(#"{"radius":5,"name":"N","identifier":"I"}"#) == "I")
    #expect(try decode(#"{"radius":5,"name":"N","identifier":null}"#) == "N")
    #expect(try decode(#"{"radius":5,"name":-3}"#) == "-3")
    // With an id property, the others are not consulted.
    #expect(throws: GeoJSONError.self) { try decode(#"{"radius":5,"name":"N"}"#, id: #""F""#, idProperty: "code") }
}

@Test("a circle from a Point with a radius, and properties kept as compact JSON")
func circleAndProperties() throws {
    let text = """
        {"type": "Feature", "id": "home",
         "properties": { "radius": 150.5, "note": "a \\"quoted\\" word, spaced  out", "tags": [ 1, 2.50 ] },
         "geometry": { "type": "Point", "coordinates": [ 11.5, 48.1, 520 ] } }
        """
    let decoded = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "home.geojson")
    #expect(decoded.count == 1)
    #expect(decoded[0].region.shape == .circle(center: Coordinate(latitude: 48.1, longitude: 11.5), radius: 150.5))
    #expect(decoded[0].region.propertiesJSON == #"{"radius":150.5,"note":"a \"quoted\" word, spaced  out","tags":[1,2.50]}"#)
    #expect(decoded[0].location == SourceLocation(file: "home.geojson", line: 1, column: 27))
}

@Test("a MultiPolygon with a hole decodes to polygons with holes")
func multiPolygonWithHole() throws {
    let text = #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"M"},"geometry":{"type":"MultiPolygon","coordinates":[
        [[[0,0],[10,0],[10,10],[0,10],[0,0]],[[4,4],[6,4],[6,6],[4,6],[4,4]]],
        [[[20,20],[30,20],[30,30],[20,20]]]]}}]}
        """#
    let regions = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "m.json").map(\.region)
    guard case .polygons(let polygons) = regions[0].shape else {
        Issue.record("not polygons")
        return
    }
    #expect(polygons.count == 2)
    #expect(polygons[0].holes.count == 1)
    #expect(polygons[0].holes[0][1] == Coordinate(latitude: 4, longitude: 6))
    let index = RegionIndex(regions: regions)
    #expect(index.contains(regionAt: 0, Coordinate(latitude: 2, longitude: 2)))
    #expect(!index.contains(regionAt: 0, Coordinate(latitude: 5, longitude: 5)))
    #expect(index.contains(regionAt: 0, Coordinate(latitude: 22, longitude: 25)))
}

@Test("a region of more than 100,000 positions is refused at its geometry")
func tooManyVertices() throws {
    let ring = (0..<100_001).map { "[\(Double($0) * 1e-6),0]" }.joined(separator: ",")
    let feature = #"{"type":"Feature","id":"huge","geometry":{"type":"Polygon","coordinates":[[[0,1],"# + ring + ",[0,1]]]}}"
    do {
        _ = try GeoJSONRegionDecoder().decode(Array(feature.utf8), file: "huge.geojson")
        Issue.record("accepted a polygon of 100,003 positions")
    } catch {
        #expect(error.code == .tooManyVertices && error.path == "geometry", "\(error)")
        #expect(error.message == "the region has 100003 positions; at most 100000")
    }
    #expect(RegionLimits.problem(withIdentifier: "Bahnhof / Station") == nil)
    #expect(RegionLimits.problem(withIdentifier: "a/./b") != nil)
    #expect(RegionLimits.problem(withIdentifier: "tab\tbed") != nil)
}
