import Foundation
import WaymarkCore

extension HandlerSupervisor {
    /// Reads the memory pressure when it is due and any handler process exists (every 10 s, every
    /// 2 s while it is above normal), and hands the lifecycle the level with the suspended
    /// handlers' resident sizes (docs/semantics.md §1.4).
    /// An unreadable or malformed file is logged once and then ignored.
    func checkMemoryPressure() {
        guard let path = settings.memoryPressureFile, !processes.isEmpty else {
            nextPressureCheck = nil
            return
        }
        let now = clock.now
        if let due = nextPressureCheck, now < due { return }
        nextPressureCheck = now.adding(seconds: settings.memoryPressureInterval)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let pressure = MemoryPressure(psi: text) else {
            if !pressureUnreadable {
                pressureUnreadable = true
                logger.warning("Cannot read memory pressure; not watched", metadata: ["file": "\(path)"])
            }
            return
        }
        pressureUnreadable = false
        var sizes: [String: Int] = [:]
        for (name, launched) in processes where lifecycle.handlers[name]?.state == .suspended {
            sizes[name] = Self.residentBytes(of: launched.process.pid)
        }
        if pressure.level != .normal {
            nextPressureCheck = now.adding(seconds: settings.memoryPressureUrgentInterval)
            logger.notice("Memory pressure", metadata: ["level": "\(pressure.level.rawValue)", "some": "\(pressure.some)", "full": "\(pressure.full)"])
        }
        feed(.memoryPressure(pressure.level, suspendedSizes: sizes))
    }

    /// When the memory pressure is next read: never without a file or a handler process; at
    /// once when a process has just appeared.
    var nextPressureWake: Timestamp? {
        guard settings.memoryPressureFile != nil, !processes.isEmpty else { return nil }
        return nextPressureCheck ?? clock.now
    }

    /// VmRSS of /proc/PID/status, bytes; 0 when gone.
    static func residentBytes(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}
