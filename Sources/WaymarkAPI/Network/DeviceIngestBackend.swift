import WaymarkCore
import WaymarkDevices
import WaymarkSources

/// What the network listener needs from the daemon (docs/devices.md): devices to authenticate
/// against, and each device's pipeline. The daemon implements it over its store and fleet of
/// device pipelines; every method may be called concurrently from many requests.
public protocol DeviceIngestBackend: Sendable {
    /// The device of this name, if any.
    func device(named name: String) async throws -> Device?
    /// The device whose secret has this hash, if any.
    func device(withSecret hash: DeviceSecret.Hash) async throws -> Device?
    /// Runs `fixes` through `device`'s pipeline (the validation gate, regions, services) and
    /// returns once everything they produced is committed: a 200 means recorded.
    func ingest(_ fixes: [Fix], device: String) async throws
    /// `ingest` for OwnTracks messages: locations as fixes, transitions as the device's own
    /// reported transitions (docs/devices.md), in order.
    func ingest(ownTracks messages: [OwnTracksMessage], device: String) async throws
    /// The OwnTracks answer for the device after it sent `messages`: the commands steering
    /// gives (its regions, its monitoring mode; docs/devices.md), else `[]`.
    func ownTracksReply(device: String, after messages: [OwnTracksMessage]) async throws -> String
    /// A phone's exchange, for its energy estimate (docs/semantics.md §4.4): the OwnTracks
    /// `messages` it sent in `requestBytes` and the `replyBytes` it got back; `messages` is nil
    /// for an OsmAnd/Traccar report. Called after the reply is made.
    func exchanged(device: String, ownTracks messages: [OwnTracksMessage]?, requestBytes: Int, replyBytes: Int) async
    /// Counts a refused request by reason (`unauthorized`, `owntracks.out-of-range`, …),
    /// under the device it named when it named one.
    func countRefusal(_ reason: String, device: String?) async
}

extension DeviceIngestBackend {
    /// No estimate: a backend that prices no phones (the fleet's ingest nodes, tests' fakes).
    public func exchanged(device: String, ownTracks messages: [OwnTracksMessage]?, requestBytes: Int, replyBytes: Int) async {}
}
