import Testing
import WaymarkCore
import WaymarkServices

/// What the services keep across a restart (docs/semantics.md §2.5), service by service; the
/// whole-ride check is in WaymarkPipelineTests/ServiceResumeTests.
@Suite struct ServiceMarkTests {
    @Test func theSignificantChangeFilterMeasuresFromItsSavedLocation() {
        var before = SignificantChangeFilter()
        _ = before.process(fix(north: 0, east: 0, at: 0))
        let mark = before.mark
        #expect(mark == ServiceMark(kind: .significantLocation, time: startTime, coordinate: fix(north: 0, east: 0, at: 0).coordinate))
        var after = SignificantChangeFilter()
        after.resume(from: [mark!], replaying: [])
        #expect(after.process(fix(north: 400, east: 0, at: 400)).isEmpty, "400 m from the saved location")
        #expect(after.process(fix(north: 600, east: 0, at: 500)).count == 1)
    }

    @Test func aStayIsRebuiltAndItsDepartureHasTheTrueArrival() {
        let stay = VisitDetectorTests.stay(north: 0, from: 0, to: 600)
        var before = VisitDetector()
        for fix in stay { _ = before.process(fix) }
        let mark = before.mark
        #expect(mark?.kind == .stay && mark?.time == startTime)
        var after = VisitDetector()
        after.resume(from: [mark!], replaying: stay)
        let departure = after.process(fix(north: 500, east: 0, at: 630))
        #expect(departure.count == 1)
        #expect(departure.first?.field("arrivalTime") == JSONObjectWriter.quoted(startTime.rfc3339))
    }

    /// Retention removed the stay's first fixes: no invented arrival time, the detector starts afresh.
    @Test func fixesThatDoNotStartAtTheStayLeaveTheDetectorFresh() {
        let stay = VisitDetectorTests.stay(north: 0, from: 0, to: 600)
        var before = VisitDetector()
        for fix in stay { _ = before.process(fix) }
        var after = VisitDetector()
        after.resume(from: [before.mark!], replaying: Array(stay.dropFirst(3)))
        #expect(after.mark == nil)
        #expect(after.process(fix(north: 500, east: 0, at: 630)).isEmpty, "no departure for a stay it does not know")
    }

    @Test func servicesWithoutMarksKeepNothing() {
        let standard = StandardUpdates(configuration: .init())
        #expect(standard.mark == nil)
        var visits = VisitDetector()
        #expect(visits.mark == nil)
        _ = visits.process(fix(north: 0, east: 0, at: 0))
        #expect(visits.mark?.kind == .stay, "a candidate stay is kept too")
    }
}
