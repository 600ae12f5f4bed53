import Dispatch
import WaymarkStore

// Handlers' acknowledgements: taken on the supervisor's thread, committed in batches off it.
// Until a batch is committed, queue reads for delivery leave its events out; paths that read
// the store for anything else (status counts, a launch's reason, shutdown) wait for it.
// Committed with synchronous=NORMAL (docs/durability.md): a lost acknowledgement means the
// event is sent once more, with a higher attempt, never that it is lost.

extension HandlerSupervisor {
    /// Takes an acknowledgement; it goes out to the committer with the others that arrive
    /// before the jobs already waiting for the supervisor have run (likely many).
    func acknowledge(_ id: Int64, handler name: String) {
        pendingAcknowledgements.append(HandlerAcknowledgement(handler: name, id: id, time: clock.now))
        guard !acknowledgementCommitScheduled else { return }
        acknowledgementCommitScheduled = true
        Task { self.commitAcknowledgements() }
    }

    /// Hands the taken acknowledgements to the committer as one transaction; never waits.
    func commitAcknowledgements() {
        acknowledgementCommitScheduled = false
        guard !pendingAcknowledgements.isEmpty else { return }
        let batch = pendingAcknowledgements
        pendingAcknowledgements.removeAll(keepingCapacity: true)
        for acknowledgement in batch { acknowledgementsInFlight[acknowledgement.handler, default: []].insert(acknowledgement.id) }
        let (store, logger) = (store, logger)
        acknowledgementCommitter.async {
            do {
                try store.acknowledgeEvents(batch)
            } catch {
                // Not lost for good: those events stay unacknowledged and are sent again.
                logger.error("Cannot record acknowledgements", metadata: ["count": "\(batch.count)", "error": "\(error)"])
            }
            Task(executorPreference: Self.executor) { await self.acknowledgementsCommitted(batch) }
        }
    }

    /// Waits until every acknowledgement taken so far is committed. Blocks the supervisor's
    /// thread while the store's writer is busy: for reads that must see them, not deliveries.
    func settleAcknowledgements() {
        commitAcknowledgements()
        acknowledgementCommitter.sync {}
    }

    func acknowledgementsCommitted(_ batch: [HandlerAcknowledgement]) {
        for acknowledgement in batch {
            acknowledgementsInFlight[acknowledgement.handler]?.remove(acknowledgement.id)
            if acknowledgementsInFlight[acknowledgement.handler]?.isEmpty == true {
                acknowledgementsInFlight[acknowledgement.handler] = nil
            }
        }
    }

    /// The ids `name` acknowledged that the store may not have yet.
    func acknowledgedNotCommitted(by name: String) -> Set<Int64> {
        var ids = acknowledgementsInFlight[name] ?? []
        for acknowledgement in pendingAcknowledgements where acknowledgement.handler == name { ids.insert(acknowledgement.id) }
        return ids
    }
}
