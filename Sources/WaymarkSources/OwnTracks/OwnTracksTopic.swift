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
    /// `base` replaces `owntracks` for apps configured with another base topic (it may have
    /// levels of its own: `home/owntracks`).
    public init?(_ topic: String, base: String = "owntracks") {
        guard topic.hasPrefix(base + "/") else { return nil }
        let levels = topic.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2 || levels.count == 3 else { return nil }
        let user = levels[0]
        let device = levels[1]
        for level in [user, device] {
            guard !level.isEmpty, !level.contains("+"), !level.contains("#") else { return nil }
        }
        var subtopic: String?
        if levels.count == 3 {
            guard Self.subtopics.contains(String(levels[2])) else { return nil }
            subtopic = String(levels[2])
        }
        self.init(user: String(user), device: String(device), subtopic: subtopic)
    }

    /// `owntracks/USER/DEVICE[/SUBTOPIC]`.
    public var topic: String {
        "owntracks/\(user)/\(device)" + (subtopic.map { "/" + $0 } ?? "")
    }
}
