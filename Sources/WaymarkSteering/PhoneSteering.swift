import WaymarkCore
import WaymarkSources

/// Everything Waymark tells one phone (docs/devices.md, "Batteries"): which monitoring mode to
/// use (`ModeSteering`) and which regions to hold (`WindowSteering`). Pure state, one per
/// device, kept by the daemon's device fleet and by each fleet ingest node; after each report
/// it gives the OwnTracks commands to send, in the HTTP reply or on the device's MQTT `cmd`
/// topic.
public struct PhoneSteering: Sendable {
    public var mode: ModeSteering
    public var window: WindowSteering

    public init(mode: ModeSteering, window: WindowSteering) {
        self.mode = mode
        self.window = window
    }

    /// The commands (each one JSON object) to send after `report`, regions first so a phone
    /// switched to move mode already holds the regions it should watch. The window's edge (the
    /// nearest region it leaves out) counts for the mode as a boundary the phone cannot watch:
    /// where the window cannot outlast a significant-mode report, the phone reports in move mode.
    /// A phone sent to significant mode because it stood still near a region it cannot watch
    /// is given a departure fence with the window (`DepartureFence`).
    public mutating func commands(after report: PhoneReport?, regions: SteeringRegions) -> [String] {
        // A transition alone is no location for the window (it refreshes from the last one).
        let sent = window.commands(after: report?.fromTransition == true ? nil : report, regions: regions)
        let edge = report.flatMap { report in window.window.map { $0.clearance(at: report.fix.coordinate, uncertainty: 0) } } ?? .infinity
        let switched = mode.commands(after: report, regions: regions, windowEdge: edge)
        // The fence re-sends the whole window, so it replaces the window's own commands.
        let fenced = window.place(fence: mode.stillFence, after: report, regions: regions)
        return (fenced.isEmpty ? sent : fenced) + switched
    }
}
