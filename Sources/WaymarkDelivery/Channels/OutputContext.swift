import Logging
import WaymarkCore
import WaymarkOutputs

/// What output channels need while they deliver besides their receiver: the lookups of the
/// formats that publish more than the event, the activity counters, the origin, the network meter.
struct OutputContext: Sendable {
    let lookups: any OutputLookups
    let activity: OutputActivity
    /// The CloudEvents `source`, and the origin OwnTracks messages carry.
    let source: String
    /// Where deliveries' bytes and connections are counted for the network radio's energy.
    var network: (any TrafficMeter)? = nil
    let logger: Logger

    func user(of device: String) async -> String { await lookups.user(of: device) }

    func fix(of device: String, atOrBefore time: Timestamp) async -> OutputFix? { await lookups.fix(of: device, atOrBefore: time) }
}
