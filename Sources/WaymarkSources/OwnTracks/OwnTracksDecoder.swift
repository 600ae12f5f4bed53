import WaymarkGeoJSON

/// Decodes the body of one OwnTracks HTTP-mode request (the booklet's "JSON" and "HTTP"
/// pages). Pure: bytes in, messages out; no clock, no I/O.
///
/// A body is one JSON object, or a JSON array of them (some clients batch queued messages);
/// either way the result is the messages in order, and the first bad one fails the whole body
/// with an error naming its member (`[1].lat: …`). An empty array decodes to no messages.
/// Each object needs a string `_type`; kinds other than those `OwnTracksMessage` reads become
/// `.unsupported(type:)`. Unknown members are ignored; see `OwnTracksObjectReader` for how
/// types are checked.
public enum OwnTracksDecoder {
    public static func decode(_ bytes: [UInt8]) throws(OwnTracksError) -> [OwnTracksMessage] {
        let body = OwnTracksBody(bytes: bytes)
        if isBlank(bytes) {
            throw body.error(
                .emptyBody, "", "the body is empty; expected an OwnTracks JSON object or an array of them", at: 0)
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw OwnTracksError(
                code: .jsonSyntax, field: "",
                message: "invalid JSON at line \(error.line), column \(error.column): \(error.message)",
                line: error.line, column: error.column)
        }
        guard case .array(let elements) = root.value else {
            return [try message(root, path: "", body: body)]
        }
        var messages: [OwnTracksMessage] = []
        messages.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            messages.append(try message(element, path: "[\(index)]", body: body))
        }
        return messages
    }

    static func message(_ node: JSONNode, path: String, body: OwnTracksBody) throws(OwnTracksError) -> OwnTracksMessage {
        let typeField = path.isEmpty ? "_type" : path + "._type"
        guard let object = OwnTracksObjectReader(node, path: path, body: body) else {
            throw body.error(
                .notAnObject, typeField, "expected a JSON object with a \"_type\", got \(node.value.typeName)", at: node.start)
        }
        guard let typeNode = try object.value("_type") else {
            throw body.error(
                .missingType, typeField, "missing (every OwnTracks message names its kind, e.g. \"location\")",
                at: node.start)
        }
        guard case .string(let type) = typeNode.value else {
            throw object.fail(.wrongType, "_type", "expected a string, got \(typeNode.value.typeName)", at: typeNode)
        }
        switch type {
        case "location": return .location(try OwnTracksLocation(reading: object))
        case "transition": return .transition(try OwnTracksTransition(reading: object))
        case "waypoint": return .waypoint(try OwnTracksWaypoint(reading: object))
        case "waypoints": return .waypoints(try waypoints(object))
        case "lwt": return .lastWill(connectedAt: try object.requiredTime("tst", why: "a last will says when the app connected"))
        case "beacon": return .beacon(try OwnTracksBeacon(reading: object))
        case "card": return .card(try OwnTracksCard(reading: object))
        default: return .unsupported(type: type)
        }
    }

    /// The `waypoints` array of a `waypoints` message. Elements may leave out their own
    /// `_type` (the configuration export's list does not always carry it), but one that has a
    /// different `_type` is an error.
    static func waypoints(_ object: OwnTracksObjectReader) throws(OwnTracksError) -> [OwnTracksWaypoint] {
        let list = try object.required("waypoints", why: "a waypoints message carries the list of waypoints")
        guard case .array(let elements) = list.value else {
            throw object.fail(.wrongType, "waypoints", "expected an array of waypoint objects, got \(list.value.typeName)", at: list)
        }
        var waypoints: [OwnTracksWaypoint] = []
        waypoints.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path = object.field("waypoints") + "[\(index)]"
            guard let waypoint = OwnTracksObjectReader(element, path: path, body: object.body) else {
                throw object.body.error(
                    .notAnObject, path, "expected a waypoint object, got \(element.value.typeName)", at: element.start)
            }
            if let type = try waypoint.optional("_type") {
                guard case .string("waypoint") = type.value else {
                    let got = if case .string = type.value { object.body.text(of: type) } else { type.value.typeName }
                    throw waypoint.fail(.invalidValue, "_type", "expected \"waypoint\", got \(got)", at: type)
                }
            }
            waypoints.append(try OwnTracksWaypoint(reading: waypoint))
        }
        return waypoints
    }

    /// Whether the body holds nothing but JSON whitespace, after an optional byte order mark.
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return bytes[start...].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }
}
