/// The radios whose energy the ledger counts (docs/semantics.md §4).
public enum Radio: String, Sendable, CaseIterable, Codable {
    case gnss
    case bluetooth
    case wifi
    case cellular

    /// Wi-Fi and cellular: radios Waymark's own traffic drives (outputs, the device listener).
    public var isNetwork: Bool { self == .wifi || self == .cellular }
}

/// What one hardware class draws in each of its states: a declarative file per device
/// (`Profiles/power/*.yaml`), so users can describe their own hardware.
public struct PowerProfile: Sendable, Equatable {
    /// The profile's name, recorded with every estimate it produces (`ublox-m8-usb`).
    public var name: String
    public var radio: Radio
    public var description: String
    /// State name → draw. GNSS: `off`, `acquiring`, `tracking`, `powerSave`; Bluetooth: `off`,
    /// `scanning` (scaled by the scan duty cycle); Wi-Fi: `off`, `idle`, `scanning`, `active`,
    /// `tail`; cellular: `off`, `idle`, `active`, `tail`.
    public var states: [String: PowerState]
    /// Seconds to a fix after power-on, by start kind (`cold`, `warm`, `hot`), for GNSS.
    public var startTimes: [String: Double]
    /// How traffic moves a network radio (Wi-Fi, cellular) between its states; nil for others.
    public var transfer: TransferTiming?

    public init(
        name: String, radio: Radio, description: String = "", states: [String: PowerState], startTimes: [String: Double] = [:],
        transfer: TransferTiming? = nil
    ) {
        self.name = name
        self.radio = radio
        self.description = description
        self.states = states
        self.startTimes = startTimes
        self.transfer = transfer
    }

    /// The states each radio must describe.
    public static func requiredStates(of radio: Radio) -> [String] {
        switch radio {
        case .gnss: ["off", "acquiring", "tracking", "powerSave"]
        case .bluetooth: ["off", "scanning"]
        case .wifi: ["off", "idle", "scanning", "active", "tail"]
        case .cellular: ["off", "idle", "active", "tail"]
        }
    }
}

/// How a network radio answers traffic (the tail model of Huang et al., "A Close Examination of
/// Performance and Power Characteristics of 4G LTE Networks", MobiSys 2012): leaving `idle` or
/// `off` costs a promotion, spent `active`; data moves at `bytesPerSecond`, `active`; after the
/// last byte the radio stays in `tail` before it may drop back.
public struct TransferTiming: Sendable, Equatable {
    /// Seconds from idle to able to send (charged as `active`).
    public var promotionSeconds: Double
    /// Seconds the radio lingers after traffic.
    public var tailSeconds: Double
    /// Bytes a second while sending or receiving.
    public var bytesPerSecond: Double

    public init(promotionSeconds: Double, tailSeconds: Double, bytesPerSecond: Double) {
        self.promotionSeconds = promotionSeconds
        self.tailSeconds = tailSeconds
        self.bytesPerSecond = bytesPerSecond
    }
}

/// One state's draw: current and supply voltage, and where the figure comes from.
public struct PowerState: Sendable, Equatable {
    /// Amperes.
    public var current: Double
    /// Volts.
    public var voltage: Double
    /// The data sheet, measurement or power profile the figure was taken from.
    public var source: String

    public init(current: Double, voltage: Double, source: String) {
        self.current = current
        self.voltage = voltage
        self.source = source
    }

    /// Watts.
    public var power: Double { current * voltage }
}
