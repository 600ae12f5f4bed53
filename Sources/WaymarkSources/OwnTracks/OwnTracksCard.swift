/// An OwnTracks `card` message: how a user appears to friends.
public struct OwnTracksCard: Sendable, Equatable {
    /// `name`: the user's display name.
    public var name: String?
    /// `face`: a PNG picture, base64, kept exactly as sent (not decoded).
    public var face: String?
    /// `tid`: the tracker ID the card belongs to.
    public var trackerID: String?

    public init(name: String? = nil, face: String? = nil, trackerID: String? = nil) {
        self.name = name
        self.face = face
        self.trackerID = trackerID
    }
}
