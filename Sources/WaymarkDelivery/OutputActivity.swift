import Synchronization
import WaymarkOutputs

/// What each output has done since the runtime started (`/v1/outputs`, `/metrics`): written by
/// its runners, read by the API.
public final class OutputActivity: Sendable {
    private let counts = Mutex<[String: OutputCounts]>([:])

    public init() {}

    public func update(_ output: String, _ change: (inout OutputCounts) -> Void) {
        counts.withLock { change(&$0[output, default: OutputCounts()]) }
    }

    public func activity(of output: String) -> OutputCounts {
        counts.withLock { $0[output] ?? OutputCounts() }
    }
}
