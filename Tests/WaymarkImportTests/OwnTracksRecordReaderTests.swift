import Testing
import WaymarkCore
import WaymarkImport

@Suite struct OwnTracksRecordReaderTests {
    private static let prefix = "2023-11-14T22:13:21Z\t*                 \t"

    private func read(_ text: String) -> (fixes: [Fix], error: ImportError?, reader: OwnTracksRecordReader) {
        var reader = OwnTracksRecordReader(input: ImportInput(bytes: Array(text.utf8), name: "2023-11.rec"))
        let (fixes, error) = SampleReading.drain(&reader)
        return (fixes, error, reader)
    }

    @Test func locationsBecomeFixesAtTheirOwnTimeAndOtherMessagesAreCounted() throws {
        let url = SampleReading.url("owntracks/jane-phone-2023-11.rec")
        var reader = OwnTracksRecordReader(input: try ImportInput(path: url.path, name: "jane-phone-2023-11.rec"))
        let (fixes, error) = SampleReading.drain(&reader)
        #expect(error == nil)
        var first = Fix(time: SampleReading.time(0), coordinate: Coordinate(latitude: 47.376887, longitude: 8.541694))
        first.horizontalAccuracy = 12
        first.altitude = 408
        first.verticalAccuracy = 3
        first.speed = 18 / 3.6
        first.course = 90
        var second = Fix(time: SampleReading.time(150), coordinate: Coordinate(latitude: 47.3771, longitude: 8.5421))
        second.horizontalAccuracy = 5
        var third = Fix(time: SampleReading.time(250), coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153))
        third.altitude = -2.5
        third.speed = 0
        third.course = 0
        third.horizontalAccuracy = 65
        #expect(fixes == [first, second, third])
        #expect(reader.skippedMessages == ["lwt": 1, "transition": 1, "waypoint": 1, "card": 1])
    }

    @Test func aLineWithoutItsTabsIsASyntaxError() {
        let noTab = read(Self.prefix + "{\"_type\":\"lwt\",\"tst\":1}\n{\"_type\":\"location\"}\n")
        #expect(noTab.error?.code == .syntax)
        #expect(noTab.error?.position == .line(2, column: 1))
        let oneTab = read("2023-11-14T22:13:21Z\t{\"_type\":\"location\"}\n")
        #expect(oneTab.error?.code == .syntax)
        #expect(oneTab.error?.position == .line(1, column: 22))
        #expect(oneTab.error?.message.contains("one TAB") == true)
    }

    @Test func aLineWhoseFirstFieldIsNotATimeIsRefused() {
        let result = read("yesterday\t*\t{\"_type\":\"lwt\",\"tst\":1}\n")
        #expect(result.error?.code == .invalidValue)
        #expect(result.error?.position == .line(1, column: 1))
    }

    @Test func badJSONIsASyntaxErrorAtItsColumnInTheLine() {
        let good = Self.prefix + "{\"_type\":\"location\",\"lat\":47.1,\"lon\":8.2,\"tst\":1700000000}\n"
        let bad = Self.prefix + "{\"_type\":\"location\",\"lat\":47.1,,\"lon\":8.2}\n"
        let result = read(good + bad)
        #expect(result.fixes.count == 1)
        #expect(result.error?.code == .syntax)
        let column = Self.prefix.count + "{\"_type\":\"location\",\"lat\":47.1,".count + 1
        #expect(result.error?.position == .line(2, column: column))
        #expect(result.error?.message.hasPrefix("invalid JSON: ") == true)
        #expect(result.error?.message.contains("column") == false)
        let empty = read(Self.prefix + "\n")
        #expect(empty.error?.code == .syntax)
        #expect(empty.error?.position == .line(1, column: Self.prefix.count + 1))
    }

    @Test func aBadLocationIsAnErrorNamingItsMemberAndColumn() {
        let line = Self.prefix + "{\"_type\":\"location\",\"lat\":91.5,\"lon\":8.2,\"tst\":1700000000}\n"
        let result = read(line)
        #expect(result.error?.code == .invalidValue)
        #expect(result.error?.position == .line(1, column: Self.prefix.count + "{\"_type\":\"location\",\"lat\":".count + 1))
        #expect(result.error?.message.hasPrefix("lat:") == true)
    }

    @Test func aMalformedMessageOfAnotherKindIsSkippedAndCounted() {
        let result = read(Self.prefix + "{\"_type\":\"transition\",\"event\":\"sideways\"}\n")
        #expect(result.error == nil)
        #expect(result.reader.skippedMessages == ["transition": 1])
    }

    @Test func blankLinesAndAnEmptyFileGiveNothing() {
        #expect(read("").fixes.isEmpty)
        #expect(read("\n  \n").error == nil)
    }

    /// 20,000 lines (about 2 MB) from a file, read line by line.
    @Test func aLargeFileIsStreamed() throws {
        var text = ""
        let count = 20_000
        for index in 0..<count {
            text += "2023-11-14T22:13:21Z\t*                 \t{\"_type\":\"location\",\"acc\":5,\"lat\":47.\(100_000 + index % 1000),"
                + "\"lon\":8.5,\"tid\":\"jp\",\"tst\":\(1_700_000_000 + index),\"vel\":3}\n"
        }
        let (read, last) = try SampleReading.streamed(Array(text.utf8), suffix: "rec") { OwnTracksRecordReader(input: $0) }
        #expect(read == count)
        #expect(last?.time == SampleReading.time(Int64(count - 1)))
    }
}
