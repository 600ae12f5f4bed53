import Foundation
import WaymarkStore

extension HandlerSupervisor {
    /// A machine restart clears force-quit marks, as a device restart does on a phone
    /// (docs/semantics.md §1.5): marks set in an earlier boot are cleared before the handlers are
    /// read, so a `--no-relaunch` handler that was force-quit comes back for its next event. Call
    /// it once at start.
    public func clearForceQuitMarksOfEarlierBoots() {
        guard let boot = WaymarkStore.bootID else { return }
        do {
            for name in try store.clearForceQuitMarks(setBefore: boot) {
                logger.notice("Force-quit mark cleared: the machine has restarted since", metadata: ["handler": "\(name)"])
            }
        } catch {
            logger.error("Cannot clear force-quit marks of an earlier boot", metadata: ["error": "\(error)"])
        }
    }
}
