import WaymarkCore
import WaymarkOutputs

/// What the OwnTracks and Home Assistant formats look up while they deliver: a device's user
/// (OwnTracks' topics), its fix at an event, who is inside a region, the regions to announce.
/// The single daemon answers from its store (`StoreOutputLookups`), a fleet from PostgreSQL.
public protocol OutputLookups: Sendable {
    /// The device's user; a device nobody knows is its own user, as `devices add` defaults it.
    func user(of device: String) async -> String
    /// The device's fix at or before `time`; nil when there is none or it cannot be read (logged).
    func fix(of device: String, atOrBefore time: Timestamp) async -> OutputFix?
    /// The devices whose saved state is inside the region, sorted.
    func devicesInside(region: String) async throws -> [String]
    /// Every region, with its display name (the `name` property) if any, and whether it is a beacon region.
    func presenceRegions() async throws -> [(identifier: String, name: String?, beacon: Bool)]
}
