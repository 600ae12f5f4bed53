import WaymarkCore
import WaymarkPower

/// What the simulated phone did and would have spent doing it: the figures a run reports
/// (docs/devices.md, "Phone simulator").
public struct PhoneAccount: Sendable, Equatable {
    /// Seconds of the track spent in each mode.
    public var secondsInMode: [PhoneMode: Double] = [:]
    public var modeSwitches = 0
    /// `location` messages sent, by the mode they were sent in.
    public var locations: [PhoneMode: Int] = [:]
    /// `transition` messages sent.
    public var transitions = 0
    /// Of those, by event ("enter", "leave").
    public var transitionsByEvent: [String: Int] = [:]
    public var bytesSent = 0
    public var bytesReceived = 0
    public var commandsReceived = 0
    /// Commands acted on (remote configuration on, a modelled action).
    public var commandsObeyed = 0
    /// Commands received with remote configuration off, or with an action not modelled.
    public var commandsIgnored = 0
    /// Replies that could not be read as commands.
    public var repliesUnreadable = 0
    /// The most waypoints the phone held at once.
    public var maxWaypointsHeld = 0
    /// Given the full region set as truth: how often the true position entered a region.
    public var regionEntries = 0
    /// Of those entries, how many were into a region the phone was not watching at that moment
    /// (not held, or held beyond the OS's 20-region limit): the window lacked it.
    public var windowMisses = 0
    /// The first few missed entries (region identifier and time), to look at.
    public var missedEntries: [(region: String, time: Timestamp)] = []
    /// Fixes the phone took: GNSS in move mode, network (cell and Wi-Fi) in significant mode.
    public var gnssFixes = 0
    public var networkFixes = 0
    /// Every upload, for an energy model to price: when, and bytes up and down.
    public var uploads: [PhoneUpload] = []
    /// When each mode began (the first entry is the start).
    public var modeChanges: [(time: Timestamp, mode: PhoneMode)] = []

    public init() {}

    public var reports: Int { locations.values.reduce(0, +) }

    public static func == (a: PhoneAccount, b: PhoneAccount) -> Bool {
        a.secondsInMode == b.secondsInMode && a.modeSwitches == b.modeSwitches && a.locations == b.locations
            && a.transitions == b.transitions && a.bytesSent == b.bytesSent && a.commandsReceived == b.commandsReceived
            && a.commandsObeyed == b.commandsObeyed && a.commandsIgnored == b.commandsIgnored
            && a.maxWaypointsHeld == b.maxWaypointsHeld && a.windowMisses == b.windowMisses && a.regionEntries == b.regionEntries
            && a.uploads == b.uploads
    }
}

/// One message sent and the reply it got.
public struct PhoneUpload: Sendable, Equatable {
    public var time: Timestamp
    public var bytesSent: Int
    public var bytesReceived: Int
}
