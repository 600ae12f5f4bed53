import Testing
import WaymarkCore
import WaymarkSources
import WaymarkSteering

@Suite struct PhoneReportTests {
    @Test func theLatestTimedLocationIsTheOneAnswered() throws {
        let messages = try OwnTracksDecoder.decode(Array("""
            [{"_type":"location","lat":47.1,"lon":8.1,"tst":1700000100,"m":2},
             {"_type":"location","lat":47.2,"lon":8.2,"tst":1700000000,"m":1},
             {"_type":"transition","event":"enter","desc":"home","lat":47.1,"lon":8.1,"tst":1700000050,"wtst":1690000000,"acc":10,"t":"c"}]
            """.utf8))
        let report = try #require(PhoneReport.latest(in: messages))
        #expect(report.fix.coordinate.latitude == 47.1)
        #expect(report.monitoringMode == 2)
        #expect(PhoneReport.latest(in: []) == nil)
    }
}
