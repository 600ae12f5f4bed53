import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkSources

/// The `setWaypoints` reply: exact text for a simple case, then parsed back with `JSONParser`
/// and decoded back with `OwnTracksDecoder`.
@Suite struct OwnTracksReplyTests {
    static let created = Timestamp(secondsSince1970: 1_700_000_000)
    static let hallUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    /// The reply's waypoint objects, after checking the envelope around them.
    static func waypointObjects(_ reply: String) throws -> (list: JSONNode, waypoints: [JSONNode]) {
        let root = try JSONParser.parse(Array(reply.utf8))
        guard case .array(let commands) = root.value else { throw Failure("the reply is not an array") }
        try #require(commands.count == 1)
        let command = commands[0]
        #expect(string(command.member("_type")) == "cmd")
        #expect(string(command.member("action")) == "setWaypoints")
        let list = try #require(command.member("waypoints"))
        #expect(string(list.member("_type")) == "waypoints")
        guard case .array(let waypoints) = try #require(list.member("waypoints")).value else {
            throw Failure("waypoints.waypoints is not an array")
        }
        return (list, waypoints)
    }

    static func string(_ node: JSONNode?) -> String? {
        guard case .string(let text)? = node?.value else { return nil }
        return text
    }

    static func number(_ node: JSONNode?) -> Double? {
        guard case .number(let value)? = node?.value else { return nil }
        return value
    }

    static func keys(_ node: JSONNode) -> [String] {
        guard case .object(let members) = node.value else { return [] }
        return members.map(\.key)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func circleReplyIsExactly() {
        let home = Region(identifier: "home", shape: .circle(center: Coordinate(latitude: 48.1, longitude: 11.5), radius: 120.4))
        #expect(
            OwnTracksReply.setWaypoints(regions: [home], created: { _ in Self.created })
                == #"[{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"home","lat":48.1,"lon":11.5,"rad":121,"tst":1700000000,"rid":"home"}]}}]"#
        )
    }

    @Test func noRegionsIsAnEmptyList() {
        #expect(
            OwnTracksReply.setWaypoints([])
                == #"[{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[]}}]"#)
        #expect(OwnTracksReply.empty == "[]")
    }

    @Test func circlesPolygonsAndBeaconsMapToWaypoints() throws {
        let square = Polygon(exterior: [
            Coordinate(latitude: 52.50, longitude: 13.40), Coordinate(latitude: 52.50, longitude: 13.42),
            Coordinate(latitude: 52.52, longitude: 13.42), Coordinate(latitude: 52.52, longitude: 13.40),
            Coordinate(latitude: 52.50, longitude: 13.40),
        ])
        let regions = [
            Region(identifier: "home", shape: .circle(center: Coordinate(latitude: 48.1, longitude: 11.5), radius: 100)),
            Region(identifier: "park", shape: .polygons([square])),
            Region(identifier: "hall", shape: .beacon(BeaconIdentity(uuid: Self.hallUUID, major: 1, minor: 2))),
        ]
        let times = ["home": 1_600_000_000, "park": 1_600_000_100, "hall": 1_600_000_200]
        let reply = OwnTracksReply.setWaypoints(
            regions: regions, created: { Timestamp(secondsSince1970: Double(times[$0.identifier]!)) })
        let (_, waypoints) = try Self.waypointObjects(reply)
        try #require(waypoints.count == 3)

        #expect(Self.keys(waypoints[0]) == ["_type", "desc", "lat", "lon", "rad", "tst", "rid"])
        #expect(Self.string(waypoints[0].member("desc")) == "home")
        #expect(Self.number(waypoints[0].member("rad")) == 100)
        #expect(Self.number(waypoints[0].member("tst")) == 1_600_000_000)

        // The polygon: a trigger circle centred on the square, reaching its farthest corner plus
        // the approach margin, rounded up (PhoneGeofence).
        let park = waypoints[1]
        #expect(Self.keys(park) == ["_type", "desc", "lat", "lon", "rad", "tst", "rid"])
        #expect(Self.string(park.member("desc")) == "park")
        #expect(Self.string(park.member("rid")) == "park")
        let center = Coordinate(
            latitude: try #require(Self.number(park.member("lat"))), longitude: try #require(Self.number(park.member("lon"))))
        #expect(abs(center.latitude - 52.51) < 1e-9)
        #expect(abs(center.longitude - 13.41) < 1e-9)
        let farthest = square.exterior.map { Geodesic.distance(center, $0) }.max()!
        #expect(Self.number(park.member("rad")) == (farthest + PhoneGeofence.defaultApproachMargin).rounded(.up))
        #expect(farthest > 1300 && farthest < 1400)

        // The beacon region: identity members, no position, and the iOS `desc` suffix.
        let hall = waypoints[2]
        #expect(Self.keys(hall) == ["_type", "desc", "uuid", "major", "minor", "tst", "rid"])
        #expect(Self.string(hall.member("desc")) == "hall:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2")
        #expect(Self.string(hall.member("uuid")) == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(Self.number(hall.member("major")) == 1)
        #expect(Self.number(hall.member("minor")) == 2)
        #expect(Self.string(hall.member("rid")) == "hall")
        #expect(Self.number(hall.member("tst")) == 1_600_000_200)
    }

    @Test(arguments: [
        (BeaconIdentity(uuid: hallUUID), "hall:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", ["_type", "desc", "uuid", "tst", "rid"]),
        (BeaconIdentity(uuid: hallUUID, major: 7), "hall:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:7", ["_type", "desc", "uuid", "major", "tst", "rid"]),
        (BeaconIdentity(uuid: hallUUID, minor: 9), "hall:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:0:9", ["_type", "desc", "uuid", "minor", "tst", "rid"]),
    ])
    func beaconIdentitiesWithFewerNumbers(identity: BeaconIdentity, desc: String, keys: [String]) throws {
        let reply = OwnTracksReply.setWaypoints(
            regions: [Region(identifier: "hall", shape: .beacon(identity))], created: { _ in Self.created })
        let waypoint = try #require(try Self.waypointObjects(reply).waypoints.first)
        #expect(Self.string(waypoint.member("desc")) == desc)
        #expect(Self.keys(waypoint) == keys)
    }

    @Test func polygonAcrossTheAntimeridianStaysSmall() throws {
        let ring = [
            Coordinate(latitude: -16.9, longitude: 179.9), Coordinate(latitude: -16.9, longitude: -179.9),
            Coordinate(latitude: -17.1, longitude: -179.9), Coordinate(latitude: -17.1, longitude: 179.9),
            Coordinate(latitude: -16.9, longitude: 179.9),
        ]
        let waypoint = OwnTracksWaypoint(
            region: Region(identifier: "fiji", shape: .polygons([Polygon(exterior: ring)])), created: Self.created)
        let center = try #require(waypoint.center)
        #expect(abs(center.latitude + 17) < 1e-9)
        #expect(abs(abs(center.longitude) - 180) < 1e-9)
        let radius = try #require(waypoint.radius)
        #expect(radius > 14_300 && radius < 16_300)
        for vertex in ring { #expect(Geodesic.distance(center, vertex) <= radius) }
    }

    @Test func multiPolygonCircleEnclosesEveryPart() throws {
        let a = Polygon(exterior: [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.01),
            Coordinate(latitude: 0.01, longitude: 0.01), Coordinate(latitude: 0, longitude: 0),
        ])
        let b = Polygon(exterior: [
            Coordinate(latitude: 0.1, longitude: 0.1), Coordinate(latitude: 0.1, longitude: 0.11),
            Coordinate(latitude: 0.11, longitude: 0.11), Coordinate(latitude: 0.1, longitude: 0.1),
        ])
        let waypoint = OwnTracksWaypoint(region: Region(identifier: "two", shape: .polygons([a, b])), created: Self.created)
        let center = try #require(waypoint.center)
        let radius = try #require(waypoint.radius)
        for vertex in a.exterior + b.exterior { #expect(Geodesic.distance(center, vertex) <= radius) }
        // Equal areas: the centre is halfway between the two triangles' centroids.
        #expect(abs(center.latitude - (0.01 / 3 + 0.1 + 0.01 / 3) / 2) < 1e-12)
    }

    @Test func stringsAreEscapedAndSurviveTheRoundTrip() throws {
        let identifier = "Café \"Zum Löwen\"\\\n\ttab\u{1}"
        let region = Region(identifier: identifier, shape: .circle(center: Coordinate(latitude: 1, longitude: 2), radius: 3))
        let (_, waypoints) = try Self.waypointObjects(OwnTracksReply.setWaypoints(regions: [region], created: { _ in Self.created }))
        #expect(Self.string(waypoints.first?.member("desc")) == identifier)
        #expect(Self.string(waypoints.first?.member("rid")) == identifier)
    }

    @Test func tstIsWholeSecondsOfTheGivenTime() throws {
        let region = Region(identifier: "a", shape: .circle(center: Coordinate(latitude: 1, longitude: 2), radius: 3))
        let reply = OwnTracksReply.setWaypoints(
            regions: [region], created: { _ in Timestamp(nanosecondsSince1970: 1_700_000_000_999_999_999) })
        let (_, waypoints) = try Self.waypointObjects(reply)
        #expect(Self.number(waypoints.first?.member("tst")) == 1_700_000_000)
        // The same region gives the same reply every time: nothing depends on the clock.
        #expect(reply == OwnTracksReply.setWaypoints(
            regions: [region], created: { _ in Timestamp(nanosecondsSince1970: 1_700_000_000_999_999_999) }))
    }

    @Test func replyRoundTripsThroughTheWaypointDecoder() throws {
        let regions = [
            Region(identifier: "home", shape: .circle(center: Coordinate(latitude: 48.137154, longitude: 11.576124), radius: 150)),
            Region(identifier: "office:2F", shape: .circle(center: Coordinate(latitude: -33.86, longitude: 151.21), radius: 80.5)),
            Region(
                identifier: "block", shape: .polygons([Polygon(exterior: [
                    Coordinate(latitude: 40.0, longitude: -74.0), Coordinate(latitude: 40.0, longitude: -73.99),
                    Coordinate(latitude: 40.01, longitude: -73.99), Coordinate(latitude: 40.0, longitude: -74.0),
                ])])),
            Region(identifier: "hall", shape: .beacon(BeaconIdentity(uuid: Self.hallUUID, major: 3))),
        ]
        let expected = regions.map { OwnTracksWaypoint(region: $0, created: Self.created) }
        let reply = OwnTracksReply.setWaypoints(expected)
        // The `waypoints` object inside the command is itself a `waypoints` message.
        let (list, _) = try Self.waypointObjects(reply)
        let inner = Array(Array(reply.utf8)[list.start..<list.end])
        let decoded = try OwnTracksDecoder.decode(inner)
        #expect(decoded == [.waypoints(expected)])
        // 80.5 m is under what a phone watches faithfully: sent as a trigger circle.
        #expect(expected[1].radius == (80.5 + PhoneGeofence.defaultApproachMargin).rounded(.up))
        #expect(expected[1].regionID == "office:2F")
    }
}
