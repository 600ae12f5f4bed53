/// The radios whose energy the ledger counts (docs/semantics.md §4).
public enum Radio: String, Sendable, CaseIterable, Codable {
    case gnss
    case bluetooth
    case wifi
    case cellular
}

/// What one hardware class draws in each of its states: a declarative file per device
/// (`Profiles/power/*.yaml`), so users can describe their own hardware.
public struct PowerProfile: Sendable, Equatable {
    /// The profile's name, recorded with every estimate it produces (`ublox-m8-usb`).
    public var name: String
    public var radio: Radio
    public var description: String
    /// State name → draw. GNSS: `off`, `acquiring`, `tracking`, `powerSave`; Bluetooth: `off`,
    /// `scanning` (scaled by the scan duty cycle); Wi-Fi: `off`, `idle`, `scanning`; cellular:
    /// `off`, `idle`, `active`, `tail`.
    public var states: [String: PowerState]
    /// Seconds to a fix after power-on, by start kind (`cold`, `warm`, `hot`), for GNSS.
    public var startTimes: [String: Double]

    public init(name: String, radio: Radio, description: String = "", states: [String: PowerState], startTimes: [String: Double] = [:]) {
        self.name = name
        self.radio = radio
        self.description = description
        self.states = states
        self.startTimes = startTimes
    }

    /// The states each radio must describe.
    public static func requiredStates(of radio: Radio) -> [String] {
        switch radio {
        case .gnss: ["off", "acquiring", "tracking", "powerSave"]
        case .bluetooth: ["off", "scanning"]
        case .wifi: ["off", "idle", "scanning"]
        case .cellular: ["off", "idle", "active", "tail"]
        }
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
