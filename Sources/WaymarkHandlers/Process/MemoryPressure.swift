/// The kernel's memory pressure (PSI, /proc/pressure/memory): the share of the last 10 s in which
/// some task, or every task, waited for memory (docs/semantics.md §1.4).
public struct MemoryPressure: Sendable, Equatable {
    /// Per cent of the last 10 s in which at least one task stalled on memory.
    public var some: Double
    /// Per cent of the last 10 s in which every non-idle task stalled on memory.
    public var full: Double

    public enum Level: String, Sendable, Equatable {
        case normal, warning, critical
    }

    /// `some` at or above this is a warning: running handlers are told.
    public static let warningSome = 10.0
    /// `some` at or above this, or `full` at or above `criticalFull`, is critical: suspended
    /// handlers are purged, largest first, while it lasts.
    public static let criticalSome = 40.0
    public static let criticalFull = 10.0

    public init(some: Double, full: Double) {
        self.some = some
        self.full = full
    }

    /// Reads the `avg10` of the `some` and `full` lines; nil when the text is not PSI.
    public init?(psi text: String) {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first, let avg10 = fields.first(where: { $0.hasPrefix("avg10=") }),
                let value = Double(avg10.dropFirst("avg10=".count)), value.isFinite, value >= 0
            else { continue }
            values[String(kind)] = value
        }
        guard let some = values["some"] else { return nil }
        self.init(some: some, full: values["full"] ?? 0)
    }

    public var level: Level {
        if some >= Self.criticalSome || full >= Self.criticalFull { return .critical }
        return some >= Self.warningSome ? .warning : .normal
    }
}
