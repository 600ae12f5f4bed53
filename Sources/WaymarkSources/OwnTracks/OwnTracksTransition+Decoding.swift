import WaymarkCore

extension OwnTracksTransition {
    /// Decodes a `transition` object: `event` and `tst` are required; `lat` and `lon` come
    /// together or not at all, and `acc` is the accuracy of that position.
    init(reading object: OwnTracksObjectReader) throws(OwnTracksError) {
        let eventNode = try object.required("event", why: "a transition is an \"enter\" or a \"leave\"")
        let expected = "expected \"enter\" or \"leave\""
        let event: Event
        switch eventNode.value {
        case .string(let text):
            guard let known = Event(rawValue: text) else {
                throw object.fail(.invalidValue, "event", "\(expected), got \(object.body.text(of: eventNode))", at: eventNode)
            }
            event = known
        default:
            throw object.fail(.wrongType, "event", "\(expected), got \(eventNode.value.typeName)", at: eventNode)
        }
        let time = try object.requiredTime("tst", why: "a transition needs a time")
        let accuracy = try object.number("acc", .metres)
        self.init(
            event: event, time: time,
            fix: try object.optionalCoordinate().map { Fix(time: time, coordinate: $0, horizontalAccuracy: accuracy) },
            regionName: try object.string("desc"),
            regionID: try object.string("rid"),
            regionCreated: try object.time("wtst"),
            trigger: try object.string("t"),
            trackerID: try object.string("tid"),
            topic: try object.string("topic"))
    }
}
