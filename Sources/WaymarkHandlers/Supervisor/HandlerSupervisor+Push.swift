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
        var record = JSONObjectWriter()
        record.add("kind", EventKind.push.rawValue)
        record.add("time", now.rfc3339)
        record.addRaw("data", data)
        let ids = try store.enqueueHandlerEvents(
            [QueuedHandlerEvent.New(handler: name, time: now, kind: .push, record: record.object)], at: now, device: Device.localName)
        feed(.eventsQueued(handler: name, reason: EventKind.push.rawValue))
        return .queued(id: ids[0])
    }
}

extension HandlerSupervisor {
    /// A background fetch fell due (`HandlerLifecycle+Fetch`): `{"kind":"fetch","time":…}` into
    /// the handler's queue, durably, then it is woken for it with reason `fetch`.
    func queueFetch(_ name: String) {
        let now = clock.now
        var record = JSONObjectWriter()
        record.add("kind", EventKind.fetch.rawValue)
        record.add("time", now.rfc3339)
        do {
            _ = try store.enqueueHandlerEvents(
                [QueuedHandlerEvent.New(handler: name, time: now, kind: .fetch, record: record.object)], at: now, device: Device.localName)
        } catch {
            logger.error("Cannot queue a background fetch", metadata: ["handler": "\(name)", "error": "\(error)"])
            return
        }
        feed(.eventsQueued(handler: name, reason: EventKind.fetch.rawValue))
    }
}
