/// The user and device an OwnTracks topic names: `owntracks/USER/DEVICE`, optionally followed
/// by one of the subtopics the apps publish to (`event`, `waypoint`, `waypoints`, `info`,
/// `cmd`, `step`, `beacon`, `dump`, `status`).
///
/// In HTTP mode the apps send the topic they would have published to in a message's `topic`
/// member. Only the default base topic is understood: a user who changed `pubTopicBase` to
/// something else gets `nil`, and the listener has to identify the device another way (the
/// apps' `X-Limit-U` and `X-Limit-D` headers, or the authenticated user).
public struct OwnTracksTopic: Sendable, Hashable {
    public var user: String
    public var device: String
    /// The level after the device (`event`, …), or `nil` for the location topic itself.
    public var subtopic: String?

    /// The subtopics the apps publish to (the booklet's "Topics" section).
    public static let subtopics: Set<String> = [
        "event", "waypoint", "waypoints", "info", "cmd", "step", "beacon", "dump", "status",
    ]

    public init(user: String, device: String, subtopic: String? = nil) {
        self.user = user
        self.device = device
        self.subtopic = subtopic
    }

    /// Parses `topic`; `nil` unless it is `owntracks/USER/DEVICE` or that plus one known
    /// subtopic, with USER and DEVICE non-empty and free of the MQTT wildcards `+` and `#`.
    public init?(_ topic: String) {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3 || levels.count == 4, levels[0] == "owntracks" else { return nil }
        let user = levels[1]
        let device = levels[2]
        for level in [user, device] {
            guard !level.isEmpty, !level.contains("+"), !level.contains("#") else { return nil }
        }
        var subtopic: String?
        if levels.count == 4 {
            guard Self.subtopics.contains(String(levels[3])) else { return nil }
            subtopic = String(levels[3])
        }
        self.init(user: String(user), device: String(device), subtopic: subtopic)
    }

    /// `owntracks/USER/DEVICE[/SUBTOPIC]`.
    public var topic: String {
        "owntracks/\(user)/\(device)" + (subtopic.map { "/" + $0 } ?? "")
    }
}
