import WaymarkCore
import WaymarkDevices
import WaymarkPipeline
import WaymarkServices
import WaymarkStore

extension WaymarkStore {
    /// What a device pipeline resumes its subscribers' services from (docs/semantics.md §2.5):
    /// `savedServiceMarks(device:)` with the store's subscriber keys read as subscribers.
    ///
    /// - Parameter now: for a device over the network, the moment its pipeline starts: stored
    ///   fixes from the future (a database from before the gate's future rule, issue 48) are not
    ///   replayed, or the first would become every resumed gate's previous fix again.
    func savedMarks(device: String = Device.localName, now: Timestamp? = nil) throws -> SavedServiceMarks {
        var saved = try savedServiceMarks(device: device)
        if let now {
            saved.fixes.removeAll { fix in fix.time.map { ValidationGate.isFromFuture($0, receivedAt: now) } ?? false }
        }
        var marks: [SubscriberID: [ServiceMark]] = [:]
        for (key, subscriberMarks) in saved.marks {
            if let subscriber = SubscriberID(storeKey: key) { marks[subscriber] = subscriberMarks }
        }
        return SavedServiceMarks(marks: marks, fixes: saved.fixes)
    }
}
