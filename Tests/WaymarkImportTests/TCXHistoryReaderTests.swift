import Foundation
import Testing
import WaymarkCore
import WaymarkImport

@Suite struct TCXHistoryReaderTests {
    typealias S = XMLTrackSamples

    static func read(_ text: String, bufferSize: Int = 256 * 1024) -> (fixes: [Fix], error: ImportError?) {
        var reader = TCXHistoryReader(bytes: Array(text.utf8), name: "t.tcx", bufferSize: bufferSize)
        return S.readAll(&reader)
    }

    static func tcx(_ trackpoints: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities><Activity Sport="Running"><Id>2020-01-01T00:00:00Z</Id><Lap StartTime="2020-01-01T00:00:00Z"><Track>
        \(trackpoints)
        </Track></Lap></Activity></Activities>
        </TrainingCenterDatabase>
        """
    }

    static func point(_ time: String = "2020-01-01T00:00:00Z", lat: String = "46.5", lon: String = "14.5") -> String {
        "<Trackpoint><Time>\(time)</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>\(lon)</LongitudeDegrees></Position></Trackpoint>"
    }

    @Test func aGarminActivityGivesItsPositionedTrackpoints() throws {
        var reader = try TCXHistoryReader(path: S.path("garmin-activity.tcx"), name: "ride.tcx")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        #expect(fixes == [
            Fix(
                time: S.time("2022-09-04T06:12:31Z"),
                coordinate: Coordinate(latitude: 46.05108642578125, longitude: 14.50592041015625),
                altitude: 297.20001220703125, speed: 0),
            Fix(
                time: S.time("2022-09-04T06:12:41Z"),
                coordinate: Coordinate(latitude: 46.05131530761719, longitude: 14.50617218017578), altitude: 298,
                speed: 3.059999942779541),
            Fix(
                time: S.time("2022-09-04T06:12:51Z"), coordinate: Coordinate(latitude: 46.05155, longitude: 14.50642),
                altitude: 298.6),
        ])
        #expect(reader.fixCount == 3)
        #expect(reader.withoutPositionCount == 1)  // the heart-rate-only first trackpoint
        #expect(reader.untimedCount == 0)
    }

    @Test func aTinyBufferReadsTheSame() throws {
        var whole = try TCXHistoryReader(path: S.path("garmin-activity.tcx"), name: "a")
        var chunked = try TCXHistoryReader(path: S.path("garmin-activity.tcx"), name: "a", bufferSize: 7)
        let a = S.readAll(&whole)
        #expect(a.fixes.count == 3)
        #expect(S.readAll(&chunked).fixes == a.fixes)
    }

    @Test func cutsAndChangesReadTheSameWithATinyBuffer() throws {
        S.checkCuts(try S.bytes("garmin-activity.tcx"), stride: 5) {
            TCXHistoryReader(bytes: $0, name: "a.tcx", bufferSize: $1)
        }
    }

    @Test func aCourseTrackpointWithoutTimeIsCounted() {
        let (fixes, error) = Self.read(Self.tcx(
            "<Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>"
                + Self.point()))
        #expect(error == nil)
        #expect(fixes.count == 1)
        var reader = TCXHistoryReader(bytes: Array(Self.tcx("<Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>" + Self.point()).utf8), name: "c.tcx")
        _ = S.readAll(&reader)
        #expect(reader.untimedCount == 1)
    }

    @Test func aHeartRateOnlyFileIsRefused() {
        let (fixes, error) = Self.read(Self.tcx("""
            <Trackpoint><Time>2020-01-01T00:00:00Z</Time><HeartRateBpm><Value>90</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2020-01-01T00:00:01Z</Time><HeartRateBpm><Value>91</Value></HeartRateBpm></Trackpoint>
            """))
        #expect(fixes.isEmpty)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("2 trackpoints without a <Position>") == true)
    }

    // MARK: Failures

    @Test func malformedXMLNamesLineAndColumn() {
        let (_, error) = Self.read(Self.tcx("<Trackpoint><Time>2020-01-01T00:00:00Z</Time>\n<Position><LatitudeDegrees>1</LatitudeDegrees></Trackpoint>"))
        #expect(error?.code == .syntax)
        #expect(error?.position == .line(5, column: 47))
        #expect(error?.description.hasPrefix("t.tcx:5:47: ") == true)
    }

    @Test func aTruncatedFileKeepsTheFixesBeforeTheCut() throws {
        let text = String(decoding: try S.bytes("garmin-activity.tcx"), as: UTF8.self)
        let cut = try #require(text.range(of: "<LatitudeDegrees>46.05155"))
        var reader = TCXHistoryReader(bytes: Array(text[..<cut.upperBound].utf8), name: "cut.tcx")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.count == 2)
        #expect(error?.code == .truncated)
        #expect(error?.position == .line(68, column: 40))
    }

    @Test(arguments: [
        (point(lat: "north"), "<LatitudeDegrees> \"north\" is not a number", 1),
        (point(lat: "95"), "<LatitudeDegrees> \"95\" is outside -90…90", 1),
        (point(lon: "-190.5"), "<LongitudeDegrees> \"-190.5\" is outside -180…180", 1),
        (point("yesterday"), "<Time> \"yesterday\" is not a time", 1),
        ("<Trackpoint><Time>2020-01-01T00:00:00Z</Time><AltitudeMeters>high</AltitudeMeters></Trackpoint>", "is not a number", 1),
        ("<Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees></Position></Trackpoint>", "<Position> has LatitudeDegrees but no LongitudeDegrees", 1),
    ])
    func badValuesAreInvalidValues(_ trackpoint: String, _ message: String, _ unused: Int) {
        let (_, error) = Self.read(Self.tcx(Self.point() + "\n" + trackpoint))
        #expect(Self.read(Self.tcx(Self.point() + "\n" + trackpoint), bufferSize: 7).error == error)
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        if case .line(let line, _) = error?.position { #expect(line == 5) } else { Issue.record("no line") }
    }

    @Test func otherDocumentsAreNotTCX() {
        let (_, error) = Self.read("<kml><Document/></kml>")
        #expect(error?.code == .unknownFormat)
        #expect(error?.message.contains("not <TrainingCenterDatabase>") == true)
    }

    // MARK: Against gpsbabel

    @Test(.enabled(if: XMLTrackSamples.hasGpsbabel))
    func gpsbabelReadsTheSameActivity() throws {
        let path = S.path("garmin-activity.tcx")
        var reader = try TCXHistoryReader(path: path, name: "ride.tcx")
        let fixes = S.readAll(&reader).fixes
        let babel = try S.babelTrackPoints(path, format: "gtrnctr")
        #expect(babel.count == fixes.count)
        for (fix, point) in zip(fixes, babel) {
            #expect(S.agree(fix, point), "\(fix) vs \(point)")
            if let speed = point.speed { #expect(abs((fix.speed ?? .nan) - speed) < 0.01) }
        }
    }

    @Test(.enabled(if: XMLTrackSamples.hasGpsbabel))
    func gpsbabelReadsTheSameGeneratedActivity() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tcx-\(UUID()).tcx")
        try Data(S.generatedTCX(points: 2000)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var reader = try TCXHistoryReader(path: file.path, name: "generated.tcx")
        let fixes = S.readAll(&reader).fixes
        let babel = try S.babelTrackPoints(file.path, format: "gtrnctr")
        #expect(fixes.count == 2000 - 40)
        #expect(reader.withoutPositionCount == 40)
        #expect(babel.count == fixes.count)
        let disagreement = zip(fixes, babel).first { !S.agree($0, $1) }
        #expect(disagreement == nil, "\(String(describing: disagreement))")
    }
}
