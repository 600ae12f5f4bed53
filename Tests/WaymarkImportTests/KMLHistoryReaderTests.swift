import Foundation
import Testing
import WaymarkCore
import WaymarkImport

@Suite struct KMLHistoryReaderTests {
    typealias S = XMLTrackSamples

    static func read(_ text: String, bufferSize: Int = 256 * 1024) -> (fixes: [Fix], error: ImportError?) {
        var reader = KMLHistoryReader(bytes: Array(text.utf8), name: "t.kml", bufferSize: bufferSize)
        return S.readAll(&reader)
    }

    static func kml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document>
        \(body)
        </Document>
        </kml>
        """
    }

    @Test func aGoogleEarthMultiTrackPairsTimesWithPositionsInOrder() throws {
        var reader = try KMLHistoryReader(path: S.path("google-earth-track.kml"), name: "ride.kml")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        #expect(fixes.map(\.time) == [
            S.time("2021-06-12T07:01:00Z"), S.time("2021-06-12T07:01:05Z"), S.time("2021-06-12T07:01:10.5Z"),
            S.time("2021-06-12T07:01:15Z"), S.time("2021-06-12T07:20:00Z"), S.time("2021-06-12T07:20:04Z"),
        ])
        #expect(fixes.first == Fix(time: S.time("2021-06-12T07:01:00Z"), coordinate: Coordinate(latitude: 47.3769, longitude: 8.5417), altitude: 408))
        #expect(fixes[1].altitude == 409.5)
        #expect(fixes.last?.coordinate == Coordinate(latitude: 47.3804, longitude: 8.5507))
        // The interleaved second track's last <when> is a date only: too coarse for a fix.
        #expect(reader.fixCount == 6)
        #expect(reader.untimedCount == 1)
        #expect(reader.skippedLineStrings == 0)
    }

    @Test func placemarksWithATimeStampAndAPointAreFixes() throws {
        var reader = try KMLHistoryReader(path: S.path("placemark-timestamps.kml"), name: "checkins.kml")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        #expect(fixes == [
            Fix(time: S.time("2019-03-02T09:15:00Z"), coordinate: Coordinate(latitude: 47.3664, longitude: 8.5466), altitude: 410),
            Fix(time: S.time("2019-03-02T09:40:30Z"), coordinate: Coordinate(latitude: 47.3779, longitude: 8.5402)),
            Fix(time: S.time("2019-03-06T12:00:00Z"), coordinate: Coordinate(latitude: 51.5072, longitude: -0.1276), altitude: 11),
        ])
        // No time, a TimeSpan, a date only; and the hand-drawn route.
        #expect(reader.untimedCount == 3)
        #expect(reader.skippedLineStrings == 1)
    }

    @Test(arguments: ["google-earth-track.kml", "placemark-timestamps.kml"])
    func aTinyBufferReadsTheSame(_ name: String) throws {
        var whole = try KMLHistoryReader(path: S.path(name), name: name)
        var chunked = try KMLHistoryReader(path: S.path(name), name: name, bufferSize: 7)
        let a = S.readAll(&whole)
        let b = S.readAll(&chunked)
        #expect(!a.fixes.isEmpty)
        #expect(a.fixes == b.fixes)
        #expect(a.error == nil && b.error == nil)
    }

    @Test(arguments: ["google-earth-track.kml", "placemark-timestamps.kml", "linestring-only.kml"])
    func cutsAndChangesReadTheSameWithATinyBuffer(_ name: String) throws {
        S.checkCuts(try S.bytes(name), stride: 5) { KMLHistoryReader(bytes: $0, name: name, bufferSize: $1) }
    }

    @Test func aLineStringOnlyDocumentIsRefusedSayingWhatToExport() throws {
        var reader = try KMLHistoryReader(path: S.path("linestring-only.kml"), name: "paths.kml")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.isEmpty)
        let refusal = try #require(error)
        #expect(refusal.code == .unsupported)
        #expect(refusal.position == .line(8, column: 7))
        #expect(refusal.message.contains("2 LineStrings"))
        #expect(refusal.message.contains("no times"))
        #expect(refusal.message.contains("gx:Track"))
        #expect(refusal.message.contains("GPX"))
        #expect(reader.skippedLineStrings == 2)
        #expect(refusal.description.hasPrefix("paths.kml:8:7: "))
    }

    @Test func aDocumentWithOnlyUntimedPointsIsRefused() {
        let (fixes, error) = Self.read(Self.kml("<Placemark><Point><coordinates>8,47</coordinates></Point></Placemark>"))
        #expect(fixes.isEmpty)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("1 position without a time") == true)
    }

    @Test func anEmptyDocumentIsRefused() {
        let (_, error) = Self.read(Self.kml(""))
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("no position at all") == true)
    }

    @Test func positionsWrittenBeforeTheirTimesArePairedToo() {
        let (fixes, error) = Self.read(Self.kml("""
            <Placemark><gx:Track>
            <gx:coord>1 2 3</gx:coord><gx:coord>4 5</gx:coord>
            <when>2020-01-01T00:00:00Z</when><when>2020-01-01T00:00:01Z</when>
            </gx:Track></Placemark>
            """))
        #expect(error == nil)
        #expect(fixes == [
            Fix(time: S.time("2020-01-01T00:00:00Z"), coordinate: Coordinate(latitude: 2, longitude: 1), altitude: 3),
            Fix(time: S.time("2020-01-01T00:00:01Z"), coordinate: Coordinate(latitude: 5, longitude: 4)),
        ])
    }

    @Test func aKML23TrackWithoutPrefixIsRead() {
        let (fixes, error) = Self.read(Self.kml("<Placemark><Track><when>2020-01-01T00:00:00Z</when><coord>1 2 3</coord></Track></Placemark>"))
        #expect(error == nil)
        #expect(fixes.count == 1)
    }

    @Test func aViewsTimeStampIsNotThePlacemarksTime() {
        let (fixes, error) = Self.read(Self.kml("""
            <Placemark><LookAt><gx:TimeStamp><when>2020-01-01T00:00:00Z</when></gx:TimeStamp></LookAt>
            <Point><coordinates>8,47</coordinates></Point></Placemark>
            <Placemark><TimeStamp><when>2020-01-02T00:00:00Z</when></TimeStamp><Point><coordinates>8,47</coordinates></Point></Placemark>
            """))
        #expect(error == nil)
        #expect(fixes.map(\.time) == [S.time("2020-01-02T00:00:00Z")])
    }

    // MARK: Failures

    @Test func malformedXMLNamesLineAndColumn() {
        let (_, error) = Self.read(Self.kml("<Placemark><name>x</nam></Placemark>"))
        #expect(error?.code == .syntax)
        #expect(error?.position == .line(4, column: 19))
        #expect(error?.file == "t.kml")
    }

    @Test func aTruncatedFileKeepsTheFixesBeforeTheCut() throws {
        let whole = try S.bytes("google-earth-track.kml")
        let text = String(decoding: whole, as: UTF8.self)
        let cut = try #require(text.range(of: "<gx:coord>8.5507"))
        var reader = KMLHistoryReader(bytes: Array(text[..<cut.lowerBound].utf8), name: "cut.kml")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.count == 5)
        #expect(error?.code == .truncated)
        if case .line(let line, _) = error?.position { #expect(line > 60) } else { Issue.record("no line") }
        #expect(throws: ImportError.self) { try reader.next() }
    }

    @Test(arguments: [
        ("<gx:coord>8.5 abc 400</gx:coord>", "is not a number"),
        ("<gx:coord>8.5</gx:coord>", "is not a position"),
        ("<gx:coord>8.5 95 1</gx:coord>", "latitude outside"),
        ("<gx:coord>181 45 1</gx:coord>", "longitude outside"),
        ("<gx:coord>1 2 3 4</gx:coord>", "more than one position"),
    ])
    func badPositionsAreInvalidValuesAtTheirText(_ coord: String, _ reason: String) {
        let document = Self.kml("<Placemark><gx:Track><when>2020-01-01T00:00:00Z</when>\n  \(coord)</gx:Track></Placemark>")
        let (_, error) = Self.read(document)
        #expect(Self.read(document, bufferSize: 7).error == error)
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.position == .line(5, column: 13))
    }

    @Test func aBadTimeIsAnInvalidValue() {
        let (_, error) = Self.read(Self.kml("<Placemark><TimeStamp><when>soon</when></TimeStamp><Point><coordinates>8,47</coordinates></Point></Placemark>"))
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("<when> \"soon\" is not a time") == true)
        #expect(error?.position == .line(4, column: 29))
    }

    @Test func aTrackWithMoreTimesThanPositionsIsRefusedAtItsEnd() {
        let document = Self.kml("""
            <Placemark>
              <gx:Track><when>2020-01-01T00:00:00Z</when><when>2020-01-01T00:00:01Z</when><gx:coord>1 2</gx:coord></gx:Track>
            </Placemark>
            """)
        let (fixes, error) = Self.read(document)
        #expect(Self.read(document, bufferSize: 7).error == error)
        #expect(fixes.count == 1)
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("2 <when> but 1 <gx:coord>") == true)
        #expect(error?.position == .line(5, column: 103))  // its end tag
    }

    @Test func otherDocumentsAreNotKML() {
        var reader = KMLHistoryReader(bytes: Array("<gpx version=\"1.1\"></gpx>".utf8), name: "x.gpx")
        #expect(S.readAll(&reader).error?.code == .unknownFormat)
        var empty = KMLHistoryReader(bytes: [], name: "empty.kml")
        #expect(S.readAll(&empty).error?.code == .syntax)
        var text = KMLHistoryReader(bytes: Array("latitude,longitude".utf8), name: "x.csv")
        #expect(S.readAll(&text).error?.code == .unknownFormat)
    }

    @Test func aMissingFileIsAnIOError() {
        #expect(throws: ImportError.self) { try KMLHistoryReader(path: "/nonexistent/x.kml", name: "x.kml") }
        do {
            _ = try KMLHistoryReader(path: "/nonexistent/x.kml", name: "x.kml")
        } catch {
            #expect(error.code == .io)
            #expect(error.file == "x.kml")
        }
    }

    // MARK: Against gpsbabel

    @Test(.enabled(if: XMLTrackSamples.hasGpsbabel))
    func gpsbabelReadsTheSameTrack() throws {
        let path = S.path("google-earth-track.kml")
        var reader = try KMLHistoryReader(path: path, name: "ride.kml")
        let fixes = S.readAll(&reader).fixes
        let babel = try S.babelTrackPoints(path, format: "kml")
        // gpsbabel also keeps the date-only <when> (as midnight); Waymark skips it.
        #expect(babel.count == fixes.count + 1)
        for (fix, point) in zip(fixes, babel) { #expect(S.agree(fix, point), "\(fix) vs \(point)") }
        #expect(babel.last?.time == S.time("2021-06-12T00:00:00Z"))
    }

    @Test(.enabled(if: XMLTrackSamples.hasGpsbabel))
    func gpsbabelReadsTheSameGeneratedTrack() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kml-\(UUID()).kml")
        try Data(S.generatedKML(points: 2500)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var reader = try KMLHistoryReader(path: file.path, name: "generated.kml")
        let fixes = S.readAll(&reader).fixes
        let babel = try S.babelTrackPoints(file.path, format: "kml")
        #expect(fixes.count == 2500)
        #expect(babel.count == fixes.count)
        let disagreement = zip(fixes, babel).first { !S.agree($0, $1) }
        #expect(disagreement == nil, "\(String(describing: disagreement))")
    }
}
