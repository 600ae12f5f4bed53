import Testing
import WaymarkCore
@testable import WaymarkPipeline

/// Accessory changes as the pipeline tells them (docs/semantics.md §1.7).
struct AccessoryEventTests {
    @Test func theFirstLookIsLearntAndEachChangeReportedOnce() {
        var watch = PresenceWatch()
        #expect(watch.see(false) == nil)
        #expect(watch.see(false) == nil)
        #expect(watch.see(true) == true)
        #expect(watch.see(true) == nil)
        #expect(watch.see(false) == false)
        var up = PresenceWatch()
        #expect(up.see(true) == nil)
        #expect(up.see(false) == false)
    }

    @Test func theRecordNamesTheChangeAndTheDevice() {
        let time = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
        #expect(
            AccessoryEvent(time: time, change: .receiverRemoved, device: "/dev/ttyACM0").record
                == #"{"kind":"accessory","event":"receiverRemoved","time":"2026-06-01T08:00:00Z","device":"/dev/ttyACM0"}"#)
        let lost = LocationEvent.accessory(AccessoryEvent(time: time, change: .fixLost))
        #expect(lost.record == #"{"kind":"accessory","event":"fixLost","time":"2026-06-01T08:00:00Z"}"#)
        #expect(lost.kind == .accessory)
        #expect(lost.notifies)
    }
}
