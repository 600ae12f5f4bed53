import Foundation
import WaymarkCore
import WaymarkDevices
import WaymarkStore

extension HandlerSupervisor {
    /// What became of a push.
    public enum PushOutcome: Sendable, Equatable {
        /// Queued (durably) as the handler's event `id`; it wakes the handler like any event.
        case queued(id: Int64)
        case noHandler
        /// Over the handler's `PushAllowance`: try again in this many seconds.
        case rateLimited(retryAfter: Double)
    }

    /// A pushed wake (docs/semantics.md §1.5): `data` (JSON, already checked) goes into the
    /// handler's queue as a `push` event — `{"kind":"push","time":…,"data":DATA}` — written before
    /// anything else happens, then the handler is woken for it as for any event: launched or
    /// resumed in the background with reason `push`. Rate-limited per handler (`PushAllowance`).
    public func push(_ name: String, data: String) throws -> PushOutcome {
        guard lifecycle.handlers[name] != nil else { return .noHandler }
        let now = clock.now
        if let wait = pushAllowances[name, default: PushAllowance()].take(at: now) { return .rateLimited(retryAfter: wait) }
        return .queued(id: try queueWake(name, kind: .push, at: now, data: data))
    }
}

extension HandlerSupervisor {
    /// A background fetch fell due (`HandlerLifecycle+Fetch`): a `fetch` event for the handler.
    func queueFetch(_ name: String) {
        do {
            _ = try queueWake(name, kind: .fetch, at: clock.now)
        } catch {
            logger.error("Cannot queue a background fetch", metadata: ["handler": "\(name)", "error": "\(error)"])
        }
    }

    /// A wake the daemon makes rather than the pipeline (push, fetch): `{"kind":…,"time":…}`,
    /// with `data` when given, into the handler's queue (durably, before anything else), then
    /// the handler is woken for it with the kind as its reason. Returns the event's id.
    private func queueWake(_ name: String, kind: EventKind, at now: Timestamp, data: String? = nil) throws -> Int64 {
        var record = JSONObjectWriter()
        record.add("kind", kind.rawValue)
        record.add("time", now.rfc3339)
        if let data { record.addRaw("data", data) }
        let ids = try store.enqueueHandlerEvents(
            [QueuedHandlerEvent.New(handler: name, time: now, kind: kind, record: record.object)], at: now, device: Device.localName)
        feed(.eventsQueued(handler: name, reason: kind.rawValue))
        return ids[0]
    }
}
