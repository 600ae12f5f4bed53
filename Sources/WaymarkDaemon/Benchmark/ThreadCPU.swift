import Foundation

/// CPU seconds per thread name, from /proc/self/task (Linux): which thread a benchmark's time
/// went to, independent of what else the machine was running.
public enum ThreadCPU {
    public static func secondsByName() -> [String: Double] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var result: [String: Double] = [:]
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return result }
        for task in tasks {
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the command: state is field 3, utime 14 and stime 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            result[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += (user + system) / ticks
        }
        return result
    }
}
