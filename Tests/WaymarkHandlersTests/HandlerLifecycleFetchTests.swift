import Foundation
import Testing
import WaymarkCore
@testable import WaymarkHandlers

/// Background fetch (docs/semantics.md §1.5): never more often than asked, together when due
/// together, less often after empty fetches, none for a force-quit handler.
@Suite struct HandlerLifecycleFetchTests {
    static func fetching(_ name: String, every interval: Double, backgroundRefresh: Bool = true) -> HandlerRegistration {
        var registration = LifecycleDriver.registration(name, backgroundRefresh: backgroundRefresh)
        registration.fetchInterval = interval
        return registration
    }

    static func fetches(_ timeline: [LifecycleDriver.Timed]) -> [String] {
        timeline.compactMap { if case .queueFetch(let name) = $0.action { "\(name)@\($0.ms / 1000)" } else { nil } }
    }

    @Test func aFetchComesOneIntervalAfterRegistrationAndAfterEachFetch() {
        var driver = LifecycleDriver([Self.fetching("a", every: 60)])
        // Due at 60 s, made at 66 s (a tenth of the interval to gather others).
        #expect(Self.fetches(driver.run(until: 200_000)) == ["a@66", "a@132", "a@198"])
    }

    @Test func handlersDueTogetherAreWokenTogetherNeverEarly() {
        var driver = LifecycleDriver([Self.fetching("a", every: 60), Self.fetching("b", every: 63), Self.fetching("c", every: 90)])
        let first = Self.fetches(driver.run(until: 70_000))
        #expect(first == ["a@66", "b@66"], "b fell due at 63 s, within a's window; c is not due")
        #expect(Self.fetches(driver.run(until: 100_000)) == ["c@99"])
    }

    @Test func emptyFetchesStretchTheIntervalAndNewDataRestoresIt() {
        var driver = LifecycleDriver([Self.fetching("a", every: 60)])
        driver.run(until: 66_000)
        driver.at(67_000, .fetchResult(handler: "a", .noData))
        #expect(driver.handler("a").fetchDue == LifecycleDriver.time(187_000), "120 s after the answer")
        driver.at(68_000, .fetchResult(handler: "a", .failed))
        #expect(driver.handler("a").fetchDue == LifecycleDriver.time(308_000), "240 s")
        for second in 69..<75 { driver.at(second * 1000, .fetchResult(handler: "a", .noData)) }
        #expect(driver.handler("a").fetchDue == LifecycleDriver.time(74_000 + 480_000), "at most 8×")
        driver.at(80_000, .fetchResult(handler: "a", .newData))
        #expect(driver.handler("a").fetchDue == LifecycleDriver.time(140_000))
    }

    @Test func noFetchesForAForceQuitHandlerOrWithoutBackgroundRefresh() {
        var driver = LifecycleDriver([Self.fetching("a", every: 60), Self.fetching("b", every: 60, backgroundRefresh: false)])
        driver.at(1_000, .userQuit(handler: "a"))
        #expect(Self.fetches(driver.run(until: 300_000)).isEmpty)
    }

    @Test func aFetchResultInFinishedIsParsedAndSaysWhetherItWasUseful() {
        #expect(HandlerRequest.parse(#"{"type":"finished","result":"newData"}"#) == .finished(useful: true, through: nil, result: .newData))
        #expect(HandlerRequest.parse(#"{"type":"finished","result":"noData","through":3}"#) == .finished(useful: false, through: 3, result: .noData))
        #expect(HandlerRequest.parse(#"{"type":"finished","useful":true,"result":"failed"}"#) == .finished(useful: true, through: nil, result: .failed))
        #expect(HandlerRequest.parse(#"{"type":"finished","result":"maybe"}"#) == .invalid("finished: \"result\" must be newData, noData or failed"))
    }
}
