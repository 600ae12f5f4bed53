import Foundation
import WaymarkStore

/// What tells one process from a later one that got its PID (docs/platform.md): its start time
/// in clock ticks after boot (field 22 of /proc/PID/stat) and the boot's id. A daemon records
/// both for every handler it launches, and after a restart ends a recorded process only if both
/// still match.
public struct ProcessIdentity: Sendable, Equatable {
    public var pid: Int32
    public var startTicks: UInt64
    public var bootID: String

    /// The running process `pid`, nil when there is none (or /proc cannot be read).
    public static func of(_ pid: Int32) -> ProcessIdentity? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")"), let boot = bootID
        else { return nil }
        // After the command's closing parenthesis: field 3 (state) onwards; field 22 is index 19.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = UInt64(fields[19]) else { return nil }
        return ProcessIdentity(pid: pid, startTicks: ticks, bootID: boot)
    }

    /// This boot's id, nil without /proc.
    public static var bootID: String? { WaymarkStore.bootID }
}
