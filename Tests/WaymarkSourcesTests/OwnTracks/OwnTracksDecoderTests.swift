import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkSources

/// OwnTracks HTTP-mode bodies as the apps send them, decoded to typed messages.
@Suite struct OwnTracksDecoderTests {
    static func decode(_ body: String) throws -> [OwnTracksMessage] {
        try OwnTracksDecoder.decode(Array(body.utf8))
    }

    static func single(_ body: String) throws -> OwnTracksMessage {
        let messages = try decode(body)
        try #require(messages.count == 1)
        return messages[0]
    }

    static let kitchenUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    @Test func iOSLocationKeepsTheFixAndEveryExtra() throws {
        let body = #"""
            {"BSSID":"a4:2b:b0:c1:11:22","SSID":"Home","_type":"location","acc":5,"alt":41,"batt":87,"bs":1,
             "cog":284,"conn":"w","created_at":1714557605,"inregions":["Home","Garden"],"inrids":["6da9cf","3defa7"],
             "lat":48.858093,"lon":2.294694,"m":1,"p":101.234,"poi":"Tower","tag":"holiday","t":"u","tid":"JP",
             "topic":"owntracks/jane/iphone","tst":1714557600,"vac":3,"vel":18,"motionactivities":["walking"]}
            """#
        guard case .location(let location) = try Self.single(body) else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix == Fix(
            time: Timestamp(rfc3339: "2024-05-01T10:00:00Z"), coordinate: Coordinate(latitude: 48.858093, longitude: 2.294694),
            altitude: 41, horizontalAccuracy: 5, verticalAccuracy: 3, speed: 5, course: 284))
        #expect(location.batteryLevel == 87)
        #expect(location.batteryStatus == 1)
        #expect(location.trigger == "u")
        #expect(location.trackerID == "JP")
        #expect(location.inRegions == ["Home", "Garden"])
        #expect(location.inRegionIDs == ["6da9cf", "3defa7"])
        #expect(location.topic == "owntracks/jane/iphone")
        #expect(location.createdAt == Timestamp(rfc3339: "2024-05-01T10:00:05Z"))
        #expect(location.connectivity == "w")
        #expect(location.ssid == "Home")
        #expect(location.bssid == "a4:2b:b0:c1:11:22")
        #expect(location.monitoringMode == 1)
        #expect(location.pressure == 101.234)
        #expect(location.pointOfInterest == "Tower")
        #expect(location.tag == "holiday")
    }

    @Test func androidLocationWithoutTopicKeepsZeroesAsSent() throws {
        let body = #"""
            {"_type":"location","_id":"5a1f0c3e","acc":13,"alt":0,"batt":62,"bs":2,"conn":"w","BSSID":"e0:cc:7a:11:22:33",
             "SSID":"office-5G","created_at":1714557661,"lat":51.500729,"lon":-0.124625,"t":"p","tid":"ph",
             "tst":1714557660,"vac":0,"vel":0}
            """#
        guard case .location(let location) = try Self.single(body) else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix.time == Timestamp(rfc3339: "2024-05-01T10:01:00Z"))
        #expect(location.fix.coordinate == Coordinate(latitude: 51.500729, longitude: -0.124625))
        #expect(location.fix.altitude == 0)
        #expect(location.fix.speed == 0)
        #expect(location.fix.verticalAccuracy == 0)
        #expect(location.fix.course == nil)
        #expect(location.topic == nil)
        #expect(location.connectivity == "w")
        #expect(location.bssid == "e0:cc:7a:11:22:33")
        #expect(location.ssid == "office-5G")
        #expect(location.batteryStatus == 2)
        #expect(location.trigger == "p")
        #expect(location.inRegions == nil)
    }

    @Test func minimalLocationLeavesEverythingUnreportedNil() throws {
        let message = try Self.single(#"{"_type":"location","lat":-33.8568,"lon":151.2153,"tst":1714557600.25}"#)
        let fix = Fix(
            time: Timestamp(rfc3339: "2024-05-01T10:00:00.25Z"), coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153))
        #expect(message == .location(OwnTracksLocation(fix: fix)))
    }

    @Test func velocityInKilometresPerHourBecomesMetresPerSecond() throws {
        guard case .location(let location) = try Self.single(#"{"_type":"location","lat":0,"lon":0,"tst":0,"vel":90}"#)
        else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix.speed == 25)
        #expect(location.fix.time == Timestamp(nanosecondsSince1970: 0))
    }

    @Test func transitionEnterCarriesTheRegionAndWhereItFired() throws {
        let body = #"""
            {"_type":"transition","acc":10,"desc":"Office","event":"enter","lat":48.87069,"lon":2.34916,"rid":"f7676c",
             "t":"c","tid":"j1","tst":1707057574,"wtst":1610104395,"topic":"owntracks/jane/phone/event"}
            """#
        let time = Timestamp(secondsSince1970: 1_707_057_574)
        let expected = OwnTracksTransition(
            event: .enter, time: time,
            fix: Fix(time: time, coordinate: Coordinate(latitude: 48.87069, longitude: 2.34916), horizontalAccuracy: 10),
            regionName: "Office", regionID: "f7676c", regionCreated: Timestamp(secondsSince1970: 1_610_104_395),
            trigger: "c", trackerID: "j1", topic: "owntracks/jane/phone/event")
        #expect(try Self.single(body) == .transition(expected))
    }

    @Test func beaconTransitionLeaveMayComeWithoutAPosition() throws {
        let body = #"{"_type":"transition","desc":"Kitchen","event":"leave","t":"b","tst":1707057600,"wtst":1610104395}"#
        guard case .transition(let transition) = try Self.single(body) else {
            Issue.record("not a transition")
            return
        }
        #expect(transition.event == .leave)
        #expect(transition.fix == nil)
        #expect(transition.trigger == "b")
        #expect(transition.regionID == nil)
        #expect(transition.time == Timestamp(secondsSince1970: 1_707_057_600))
    }

    @Test func waypointAsTheAppPublishesIt() throws {
        let body = #"{"_type":"waypoint","desc":"Paris is lovely","lat":48.85833,"lon":2.29513,"rad":50,"tst":1385997757,"rid":"f7676c"}"#
        let expected = OwnTracksWaypoint(
            name: "Paris is lovely", center: Coordinate(latitude: 48.85833, longitude: 2.29513), radius: 50,
            created: Timestamp(secondsSince1970: 1_385_997_757), regionID: "f7676c")
        #expect(try Self.single(body) == .waypoint(expected))
    }

    @Test func waypointsExportWithACircleAndABeaconRegion() throws {
        let body = #"""
            {"_type":"waypoints","_creator":"OwnTracks iOS","waypoints":[
              {"_type":"waypoint","desc":"Home","lat":52.5163,"lon":13.3777,"rad":100,"tst":1600000000,"rid":"a1b2c3"},
              {"desc":"Kitchen","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"tst":1600000100}
            ]}
            """#
        let expected: [OwnTracksWaypoint] = [
            OwnTracksWaypoint(
                name: "Home", center: Coordinate(latitude: 52.5163, longitude: 13.3777), radius: 100,
                created: Timestamp(secondsSince1970: 1_600_000_000), regionID: "a1b2c3"),
            OwnTracksWaypoint(
                name: "Kitchen", created: Timestamp(secondsSince1970: 1_600_000_100),
                beacon: BeaconIdentity(uuid: Self.kitchenUUID, major: 1)),
        ]
        #expect(try Self.single(body) == .waypoints(expected))
    }

    @Test func lastWillGivesWhenTheAppConnected() throws {
        #expect(try Self.single(#"{"_type":"lwt","tst":1380738247}"#) == .lastWill(connectedAt: Timestamp(secondsSince1970: 1_380_738_247)))
    }

    @Test func rangedBeaconWithUnknownDistance() throws {
        let body = #"""
            {"_type":"beacon","desc":"Kitchen","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":7,
             "tst":1714557600,"acc":-1,"rssi":-72,"prox":0,"tid":"JP"}
            """#
        let expected = OwnTracksBeacon(
            uuid: Self.kitchenUUID, major: 1, minor: 7, time: Timestamp(secondsSince1970: 1_714_557_600), accuracy: nil,
            rssi: -72, proximity: 0, regionName: "Kitchen", trackerID: "JP")
        #expect(try Self.single(body) == .beacon(expected))
    }

    @Test func rangedBeaconKeepsAKnownDistance() throws {
        let body = #"{"_type":"beacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":65535,"minor":0,"tst":1714557600,"acc":2.5,"prox":2}"#
        guard case .beacon(let beacon) = try Self.single(body) else {
            Issue.record("not a beacon")
            return
        }
        #expect(beacon.accuracy == 2.5)
        #expect(beacon.major == 65535)
        #expect(beacon.minor == 0)
        #expect(beacon.proximity == 2)
        #expect(beacon.rssi == nil)
    }

    @Test func cardKeepsTheFaceAsSent() throws {
        let face = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
        let body = #"{"_type":"card","name":"Jane Doe","face":"\#(face)","tid":"JP"}"#
        #expect(try Self.single(body) == .card(OwnTracksCard(name: "Jane Doe", face: face, trackerID: "JP")))
        #expect(try Self.single(#"{"_type":"card"}"#) == .card(OwnTracksCard()))
    }

    @Test(arguments: [
        (#"{"_type":"cmd","action":"reportLocation"}"#, "cmd"),
        (#"{"_type":"status","iOS":{"locationManager":{"altitude":"enabled"}}}"#, "status"),
        (#"{"_type":"steps","tst":1714557600,"steps":1200,"from":1714550000,"to":1714557600}"#, "steps"),
        (#"{"_type":"encrypted","data":"c29tZQ=="}"#, "encrypted"),
        (#"{"_type":"configuration","mode":3}"#, "configuration"),
        (#"{"_type":"request","request":"tour"}"#, "request"),
        (#"{"_type":"dump"}"#, "dump"),
    ])
    func otherKindsDecodeAsUnsupported(body: String, type: String) throws {
        #expect(try Self.single(body) == .unsupported(type: type))
    }

    @Test func arrayBodyDecodesEveryMessageInOrder() throws {
        let body = #"""
            [{"_type":"location","lat":1,"lon":2,"tst":1714557600},
             {"_type":"status"},
             {"_type":"transition","event":"leave","tst":1714557700}]
            """#
        let messages = try Self.decode(body)
        #expect(messages.count == 3)
        guard case .location(let location) = messages[0], case .transition(let transition) = messages[2] else {
            Issue.record("unexpected kinds: \(messages)")
            return
        }
        #expect(location.fix.coordinate == Coordinate(latitude: 1, longitude: 2))
        #expect(messages[1] == .unsupported(type: "status"))
        #expect(transition.event == .leave)
    }

    @Test func emptyArrayIsNoMessages() throws {
        #expect(try Self.decode(" [ ] ").isEmpty)
    }

    @Test func byteOrderMarkAndNullOptionalsAreTolerated() throws {
        let body = [UInt8]([0xEF, 0xBB, 0xBF]) + Array(#"{"_type":"location","lat":1,"lon":2,"tst":3,"acc":null,"tid":null}"#.utf8)
        let messages = try OwnTracksDecoder.decode(body)
        guard case .location(let location) = messages.first else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix.horizontalAccuracy == nil)
        #expect(location.trackerID == nil)
    }

    @Test(arguments: [-90.0, 90.0, 0.0])
    func latitudeBoundsAreInclusive(latitude: Double) throws {
        guard case .location(let location) = try Self.single(#"{"_type":"location","lat":\#(latitude),"lon":0,"tst":0}"#)
        else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix.coordinate.latitude == latitude)
    }

    @Test(arguments: [-180.0, 180.0])
    func longitudeBoundsAreInclusive(longitude: Double) throws {
        guard case .location(let location) = try Self.single(#"{"_type":"location","lat":0,"lon":\#(longitude),"tst":0}"#)
        else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix.coordinate.longitude == longitude)
    }

    @Test(arguments: [
        ("0", Timestamp(nanosecondsSince1970: 0)),
        ("9223372036", Timestamp(nanosecondsSince1970: 9_223_372_036_000_000_000)),
        ("1714557600.5", Timestamp(nanosecondsSince1970: 1_714_557_600_500_000_000)),
    ])
    func timeBoundsAreInclusive(tst: String, expected: Timestamp) throws {
        #expect(try Self.single(#"{"_type":"lwt","tst":\#(tst)}"#) == .lastWill(connectedAt: expected))
    }

    @Test(arguments: [("0", 0.0), ("360", 360.0), ("359.9", 359.9)])
    func courseBoundsAreInclusive(cog: String, expected: Double) throws {
        guard case .location(let location) = try Self.single(#"{"_type":"location","lat":0,"lon":0,"tst":0,"cog":\#(cog)}"#)
        else {
            Issue.record("not a location")
            return
        }
        #expect(location.fix.course == expected)
    }
}
