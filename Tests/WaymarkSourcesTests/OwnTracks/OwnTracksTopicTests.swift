import Testing
import WaymarkSources

/// `owntracks/USER/DEVICE[/SUBTOPIC]` → user and device.
@Suite struct OwnTracksTopicTests {
    @Test(arguments: [
        ("owntracks/jane/phone", OwnTracksTopic(user: "jane", device: "phone")),
        ("owntracks/jane/phone/event", OwnTracksTopic(user: "jane", device: "phone", subtopic: "event")),
        ("owntracks/jane/phone/waypoint", OwnTracksTopic(user: "jane", device: "phone", subtopic: "waypoint")),
        ("owntracks/jane/phone/waypoints", OwnTracksTopic(user: "jane", device: "phone", subtopic: "waypoints")),
        ("owntracks/jane/phone/info", OwnTracksTopic(user: "jane", device: "phone", subtopic: "info")),
        ("owntracks/jane/phone/status", OwnTracksTopic(user: "jane", device: "phone", subtopic: "status")),
        ("owntracks/Jane Doe/iPhone 15", OwnTracksTopic(user: "Jane Doe", device: "iPhone 15")),
        ("owntracks/jürgen/pixel-8a", OwnTracksTopic(user: "jürgen", device: "pixel-8a")),
    ])
    func validTopicsNameUserAndDevice(topic: String, expected: OwnTracksTopic) {
        #expect(OwnTracksTopic(topic) == expected)
        #expect(OwnTracksTopic(topic)?.topic == topic)
    }

    @Test(arguments: [
        "",
        "owntracks",
        "owntracks/jane",
        "owntracks/jane/",
        "owntracks//phone",
        "/owntracks/jane/phone",
        "owntracks/jane/phone/",
        "owntracks/jane/phone/location",
        "owntracks/jane/phone/event/extra",
        "OwnTracks/jane/phone",
        "tracks/jane/phone",
        "owntracks/+/phone",
        "owntracks/jane/#",
        "owntracks/ja+ne/phone",
    ])
    func otherTopicsAreNotUnderstood(topic: String) {
        #expect(OwnTracksTopic(topic) == nil)
    }
}
