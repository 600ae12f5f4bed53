import WaymarkBeacons
import WaymarkCore

/// What a source tells a runtime: gpsd live, a GPX track replayed, a Bluetooth adapter, a beacon
/// replay file, or a device over the network (OwnTracks, OsmAnd). The single daemon's
/// `LivePipeline` and a fleet's workers turn the data-bearing ones into `PipelineInput`s
/// through `DevicePipeline.record`.
public enum SourceEvent: Sendable, Equatable {
    /// The source is delivering (gpsd connected; a replay started). The text names it.
    case connected(String)
    /// A position report with a usable fix (mode 2D or 3D).
    case fix(Fix)
    /// No fix: gpsd reported mode 0/1, or the receiver went quiet. Recorded as a gap.
    case gap(time: Timestamp?, reason: String)
    /// The source stopped delivering (gpsd went away) and why; it will be retried.
    case disconnected(String)
    /// A receiver attached or removed, the Bluetooth adapter up or down (docs/semantics.md
    /// §1.7); `device` names it. Fix lost and regained the pipeline sees for itself.
    case accessory(AccessoryEvent.Change, device: String?)
    /// An iBeacon advertisement (beacon sources).
    case advertisement(BeaconAdvertisement)
    /// The beacon source's clock: time has passed without an advertisement.
    case tick(Timestamp)
    /// Something the device reported about itself (a region transition its own geofencing
    /// saw), recorded as it is, in order with its fixes.
    case reported(EventRecord)
}
