import WaymarkCore
import WaymarkPower

/// The monitoring mode Waymark asks of one phone, and whether the phone obeyed (docs/devices.md,
/// "Batteries"). Filled in by the mode policy work (issue 43, item 1).
public struct ModeSteering: Sendable {
    public let policy: SteeringSettings.PowerPolicy

    public init(policy: SteeringSettings.PowerPolicy) {
        self.policy = policy
    }

    public mutating func commands(after report: PhoneReport?, regions: SteeringRegions) -> [String] { [] }
}
