import Foundation
import Testing
import WaymarkCore
import WaymarkImport

@Suite struct CSVHistoryReaderTests {
    private func read(_ text: String, name: String = "points.csv", columns: CSVColumns? = nil) -> (fixes: [Fix], error: ImportError?, reader: CSVHistoryReader) {
        var reader = CSVHistoryReader(input: ImportInput(bytes: Array(text.utf8), name: name), columns: columns)
        let (fixes, error) = SampleReading.drain(&reader)
        return (fixes, error, reader)
    }

    private func sample(_ name: String, columns: CSVColumns? = nil) throws -> (fixes: [Fix], error: ImportError?, reader: CSVHistoryReader) {
        var reader = CSVHistoryReader(input: try ImportInput(path: SampleReading.url("csv/" + name).path, name: name), columns: columns)
        let (fixes, error) = SampleReading.drain(&reader)
        return (fixes, error, reader)
    }

    @Test func gpsLoggerForAndroidsCSV() throws {
        let result = try sample("gpslogger.csv")
        #expect(result.error == nil)
        #expect(result.reader.rowsWithoutPosition == 1)
        var first = Fix(time: SampleReading.time(0), coordinate: Coordinate(latitude: 47.376887, longitude: 8.541694))
        first.altitude = 408
        first.horizontalAccuracy = 4.8
        first.course = 87.5
        first.speed = 1.35
        var second = Fix(time: SampleReading.time(5), coordinate: Coordinate(latitude: 47.376912, longitude: 8.541781))
        second.altitude = 408.5
        second.horizontalAccuracy = 3.9
        second.course = 88.1
        second.speed = 1.42
        var third = Fix(time: SampleReading.time(15).adding(seconds: 0.5), coordinate: Coordinate(latitude: 47.37695, longitude: 8.541903))
        third.altitude = 409.1
        third.horizontalAccuracy = 12
        third.speed = 0
        #expect(result.fixes == [first, second, third])
    }

    @Test func semicolonsDecimalCommasADateColumnAndUnitsInTheHeader() throws {
        let result = try sample("european.csv")
        #expect(result.error == nil)
        let base = Timestamp(rfc3339: "2024-03-01T08:15:00Z")!
        #expect(result.fixes.map(\.time) == [base, base.adding(seconds: 10.5), base.adding(seconds: 20 - 3600)])
        #expect(result.fixes.map(\.coordinate.latitude) == [52.520008, 52.520108, 52.520208])
        #expect(result.fixes.map(\.coordinate.longitude) == [13.404954, 13.405054, 13.405154])
        let feet: Double = 0.3048
        let kilometresPerHour: Double = 1 / 3.6
        let altitudes: [Double?] = [100 * feet, 110 * feet, nil]
        let speeds: [Double?] = [36 * kilometresPerHour, 18 * kilometresPerHour, nil]
        let courses: [Double?] = [270, 271.5, nil]
        #expect(result.fixes.map(\.altitude) == altitudes)
        #expect(result.fixes.map(\.speed) == speeds)
        #expect(result.fixes.map(\.course) == courses)
    }

    @Test func tabsAndEpochMillisecondsOrSeconds() throws {
        let result = try sample("epoch.tsv")
        #expect(result.error == nil)
        let base = Timestamp(rfc3339: "2024-03-01T08:15:00Z")!
        #expect(result.fixes.map(\.time) == [base, base.adding(seconds: 5.25), base.adding(seconds: 10)])
        #expect(result.fixes.map(\.horizontalAccuracy) == [5, 6, nil])  // -1: unknown
        #expect(result.fixes.map(\.course) == [10, 20, nil])
        #expect(result.fixes.last?.coordinate == Coordinate(latitude: -33.857, longitude: 151.2155))
    }

    @Test func columnsNamedOnTheCommandLine() throws {
        let result = try sample("columns.csv", columns: try CSVColumns(parsing: "lat=Y, lon=x,time=when"))
        #expect(result.error == nil)
        let base = Timestamp(rfc3339: "2024-03-01T08:15:00Z")!
        #expect(result.fixes == [
            Fix(time: base, coordinate: Coordinate(latitude: 51.5007, longitude: -0.1246)),
            Fix(time: base.adding(seconds: 1.25), coordinate: Coordinate(latitude: 51.5008, longitude: -0.1247)),
        ])
        let numbered = try sample("columns.csv", columns: try CSVColumns(parsing: "lat=3,lon=2,time=4"))
        #expect(numbered.fixes == result.fixes)
    }

    @Test func columnsThatDoNotExistAreRefusedClearly() throws {
        #expect(throws: ImportError.self) { try CSVColumns(parsing: "lat=Y,height=Z") }
        do {
            _ = try CSVColumns(parsing: "lat=Y,height=Z")
        } catch {
            #expect(error.description.hasPrefix("--columns: unknown key \"height\" (known: lat, latitude,"))
        }
        #expect(throws: ImportError.self) { try CSVColumns(parsing: "lat") }
        #expect(throws: ImportError.self) { try CSVColumns(parsing: "") }
        let result = try sample("columns.csv", columns: try CSVColumns(parsing: "lat=Y,lon=X,time=at"))
        #expect(result.error?.code == .invalidValue)
        #expect(result.error?.description == "columns.csv:1:1: --columns time=at: the header has no column \"at\" "
            + "(it has \"id\", \"X\", \"Y\", \"when\", \"note\")")
    }

    @Test func aHeaderWithoutLatitudeAndLongitudeNamesWhatItFound() throws {
        let result = try sample("columns.csv")
        #expect(result.fixes.isEmpty)
        #expect(result.error?.code == .unsupported)
        #expect(result.error?.message.contains("no latitude (lat, latitude…), no longitude (lon, lng, long, longitude…), no time") == true)
        #expect(result.error?.message.contains("the header has \"id\", \"X\", \"Y\", \"when\", \"note\"") == true)
    }

    @Test func aBadValueNamesItsLineColumnAndColumnName() {
        var text = "time,note,lat,lon\n"
        for index in 0..<15 {
            text += index == 3 ? "2024-03-01T08:00:0\(index % 10)Z,\"two\nlines\",47.1,8.2\n" : "2024-03-01T08:00:00Z,,47.1,8.2\n"
        }
        text += "2024-03-01T08:00:00Z,,91.5,8.2\n"
        let result = read(text)
        #expect(result.fixes.count == 15)
        #expect(result.error?.description == "points.csv:18:3: column \"lat\": latitude \"91.5\" is out of range (-90…90)")
        let notANumber = read("lat,lon,time\n47.1,east,2024-03-01T08:00:00Z\n")
        #expect(notANumber.error?.description == "points.csv:2:2: column \"lon\": longitude \"east\" is not a number")
        let notATime = read("lat,lon,time\n47.1,8.2,yesterday\n")
        #expect(notATime.error?.code == .invalidValue)
        #expect(notATime.error?.position == .line(2, column: 3))
        #expect(notATime.error?.message.hasPrefix("column \"time\": time \"yesterday\" is not a time") == true)
        // 70928090000 s is in the year 4217, past what a timestamp holds: not a time, not a trap.
        let tooLate = read("lat,lon,time\n47.1,8.2,70928090000\n")
        #expect(tooLate.error?.position == .line(2, column: 3))
    }

    @Test func aDateColumnAloneHoldsWholeTimestamps() {
        let result = read("Date,Latitude,Longitude\n2024-03-01T08:00:00Z,47.1,8.2\n")
        #expect(result.fixes == [Fix(time: Timestamp(rfc3339: "2024-03-01T08:00:00Z"), coordinate: Coordinate(latitude: 47.1, longitude: 8.2))])
    }

    @Test func emptyPositionsAndTimesAreSkippedAndCounted() {
        let result = read("lat,lon,time\n,,2024-03-01T08:00:00Z\n47.1,8.2,\n\n47.1,8.2,1709280000\n")
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.reader.rowsWithoutPosition == 1)
        #expect(result.reader.rowsWithoutTime == 1)
    }

    @Test func anUnterminatedQuoteIsTruncated() {
        let result = read("lat,lon,time,note\n47.1,8.2,1709280000,ok\n47.1,8.2,1709280001,\"never\nclosed\n")
        #expect(result.fixes.count == 1)
        #expect(result.error?.code == .truncated)
        #expect(result.error?.position == .line(5, column: 4))
    }

    @Test func malformedRowsAreSyntaxErrors() {
        let afterQuote = read("lat,lon,time\n\"47.1\"x,8.2,1709280000\n")
        #expect(afterQuote.error?.code == .syntax)
        #expect(afterQuote.error?.position == .line(2, column: 1))
        let short = read("time,lat,lon\n1709280000,47.1\n")
        #expect(short.error?.code == .syntax)
        #expect(short.error?.position == .line(2, column: 2))
    }

    @Test func anEmptyFileIsNotCSV() {
        #expect(read("").error?.code == .unknownFormat)
        #expect(read("\n\n").error?.code == .unknownFormat)
    }

    @Test func aByteOrderMarkAndQuotedHeaderNamesAreRead() {
        let result = read("\u{FEFF}\"Latitude\",\"Longitude\",\"Timestamp\"\r\n\"47.1\",\"8.2\",\"2024-03-01 08:00:00\"\r\n")
        #expect(result.error == nil)
        #expect(result.fixes == [Fix(time: Timestamp(rfc3339: "2024-03-01T08:00:00Z"), coordinate: Coordinate(latitude: 47.1, longitude: 8.2))])
    }

    /// 200,000 rows (about 9 MB) from a file, read through the input's fixed buffer.
    @Test func aLargeFileIsStreamed() throws {
        var text = "timestamp,latitude,longitude,altitude\n"
        let count = 200_000
        for index in 0..<count { text += "\(1_700_000_000 + index),47.\(100_000 + index % 1000),8.5,\(index % 500)\n" }
        let (read, last) = try SampleReading.streamed(Array(text.utf8), suffix: "csv") { CSVHistoryReader(input: $0) }
        #expect(read == count)
        #expect(last?.time == SampleReading.time(Int64(count - 1)))
        #expect(last?.altitude == Double((count - 1) % 500))
    }
}
