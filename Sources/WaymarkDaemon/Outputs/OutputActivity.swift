import Synchronization
import WaymarkAPI

/// What each output has done since the daemon started (`/v1/outputs`, `/metrics`): written by
/// its worker, read by the API.
final class OutputActivity: Sendable {
    private let counts = Mutex<[String: OutputStatus.Activity]>([:])

    func update(_ output: String, _ change: (inout OutputStatus.Activity) -> Void) {
        counts.withLock { change(&$0[output, default: OutputStatus.Activity()]) }
    }

    func activity(of output: String) -> OutputStatus.Activity {
        counts.withLock { $0[output] ?? OutputStatus.Activity() }
    }
}
