import WaymarkDevices
import WaymarkPipeline
import WaymarkServices
import WaymarkStore

extension WaymarkStore {
    /// What a device pipeline resumes its subscribers' services from (docs/semantics.md §2.5):
    /// `savedServiceMarks(device:)` with the store's subscriber keys read as subscribers.
    func savedMarks(device: String = Device.localName) throws -> SavedServiceMarks {
        let saved = try savedServiceMarks(device: device)
        var marks: [SubscriberID: [ServiceMark]] = [:]
        for (key, subscriberMarks) in saved.marks {
            if let subscriber = SubscriberID(storeKey: key) { marks[subscriber] = subscriberMarks }
        }
        return SavedServiceMarks(marks: marks, fixes: saved.fixes)
    }
}
