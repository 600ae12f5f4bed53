import Testing
import WaymarkCore
import WaymarkImport

/// The JSON history reader on a real-shaped sample of each shape, read by the same reader.
@Suite struct JSONHistoryReaderTests {
    static func read(_ input: ImportInput) -> (items: [ImportedItem], error: ImportError?, reader: JSONHistoryReader) {
        var reader = JSONHistoryReader(input: input)
        var items: [ImportedItem] = []
        do {
            while let item = try reader.next() { items.append(item) }
            return (items, nil, reader)
        } catch {
            return (items, error, reader)
        }
    }

    static func read(sample: String) throws -> (items: [ImportedItem], error: ImportError?, reader: JSONHistoryReader) {
        read(try ImportInput(path: SampleReading.url(sample).path, name: sample))
    }

    static func read(_ text: String, name: String = "t.json") -> (items: [ImportedItem], error: ImportError?, reader: JSONHistoryReader) {
        read(ImportInput(bytes: Array(text.utf8), name: name))
    }

    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static func at(_ latitude: Double, _ longitude: Double) -> Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    @Test func takeoutRecordsGiveFixesSkipEntriesWithoutPositionAndUndoOldOverflow() throws {
        let (items, error, reader) = try Self.read(sample: "google/Records.json")
        #expect(error == nil)
        #expect(reader.shape == .googleRecords)
        #expect(reader.skipped == 1)
        let expected: [ImportedItem] = [
                .fix(
                    Fix(
                        time: Self.time("2021-06-01T07:00:00.123Z"), coordinate: Self.at(47.3771234, 8.5412345), altitude: 431,
                        horizontalAccuracy: 14, verticalAccuracy: 3)),
                .fix(
                    Fix(
                        time: Self.time("2021-06-01T07:01:00Z"), coordinate: Self.at(47.3781234, 8.5422345), horizontalAccuracy: 5,
                        speed: 3, course: 270)),
                .fix(
                    Fix(
                        time: Timestamp(nanosecondsSince1970: 1_381_234_567_890_000_000), coordinate: Self.at(-0.09, -0.1),
                        horizontalAccuracy: 30)),
        ]
        #expect(items == expected)
    }

    @Test func semanticLocationHistoryGivesVisitsActivitiesAndTimedPathPoints() throws {
        let (items, error, reader) = try Self.read(sample: "google/Semantic-2021_JUNE.json")
        #expect(error == nil)
        #expect(reader.shape == .semanticLocationHistory)
        #expect(reader.skipped == 1)
        let expected: [ImportedItem] = [
                .reportedVisit(
                    ReportedVisit(
                        start: Self.time("2021-06-01T07:00:00Z"), end: Self.time("2021-06-01T07:45:00.250Z"),
                        coordinate: Self.at(47.3769, 8.5399), name: "Zürich HB", address: "Bahnhofplatz, 8001 Zürich, Switzerland",
                        placeID: "ChIJn0N6W6egmkcRmPWz0T5bJ4o", semanticType: "TYPE_SEARCHED_ADDRESS", probability: 0.85)),
                .reportedActivity(
                    ReportedActivity(
                        start: Self.time("2021-06-01T07:45:00Z"), end: Self.time("2021-06-01T08:00:00Z"), from: Self.at(47.377, 8.54),
                        to: Self.at(47.39, 8.55), mode: "CYCLING", distance: 1650, probability: 0.925)),
                .fix(Fix(time: Self.time("2021-06-01T07:50:00Z"), coordinate: Self.at(47.38, 8.542), horizontalAccuracy: 8)),
                .fix(Fix(time: Self.time("2021-06-01T07:51:00Z"), coordinate: Self.at(47.385, 8.546), horizontalAccuracy: 12)),
        ]
        #expect(items == expected)
    }

    @Test func androidTimelineGivesSegmentsPathAndRawPositions() throws {
        let (items, error, reader) = try Self.read(sample: "google/Timeline.json")
        #expect(error == nil)
        #expect(reader.shape == .androidTimeline)
        let expected: [ImportedItem] = [
                .reportedVisit(
                    ReportedVisit(
                        start: Self.time("2024-03-10T07:00:00Z"), end: Self.time("2024-03-10T08:30:00Z"),
                        coordinate: Self.at(47.3769, 8.5399), placeID: "ChIJabc", semanticType: "HOME", probability: 0.87)),
                .reportedActivity(
                    ReportedActivity(
                        start: Self.time("2024-03-10T08:30:00Z"), end: Self.time("2024-03-10T09:00:00Z"), from: Self.at(47.3769, 8.5399),
                        to: Self.at(47.39, 8.55), mode: "CYCLING", distance: 1650.5, probability: 0.9)),
                .fix(Fix(time: Self.time("2024-03-10T08:35:00Z"), coordinate: Self.at(47.38, 8.542))),
                .fix(Fix(time: Self.time("2024-03-10T08:40:00Z"), coordinate: Self.at(-33.8568, 151.2153))),
                .fix(
                    Fix(
                        time: Self.time("2024-03-10T08:36:00Z"), coordinate: Self.at(47.381, 8.543), altitude: 420.5,
                        horizontalAccuracy: 13, speed: 4.25)),
        ]
        #expect(items == expected)
    }

    @Test func iosLocationHistoryGivesSegmentsAndPathPointsAtTheirOffsets() throws {
        let (items, error, reader) = try Self.read(sample: "google/location-history.json")
        #expect(error == nil)
        #expect(reader.shape == .iosTimeline)
        let expected: [ImportedItem] = [
                .reportedVisit(
                    ReportedVisit(
                        start: Self.time("2019-04-03T12:00:00Z"), end: Self.time("2019-04-03T13:00:00Z"),
                        coordinate: Self.at(40.7128, -74.006), placeID: "ChIJwork", semanticType: "Work", probability: 0.75)),
                .reportedActivity(
                    ReportedActivity(
                        start: Self.time("2019-04-03T13:00:00Z"), end: Self.time("2019-04-03T13:30:00Z"), from: Self.at(40.7128, -74.006),
                        to: Self.at(40.7306, -73.9352), mode: "walking", distance: 2400, probability: 0.6)),
                .fix(Fix(time: Self.time("2019-04-03T13:12:00Z"), coordinate: Self.at(40.715, -74))),
                .fix(Fix(time: Self.time("2019-04-03T13:30:00Z"), coordinate: Self.at(40.72, -73.99))),
        ]
        #expect(items == expected)
    }

    @Test func timelineEditsGivePositionSignalsOnly() throws {
        let (items, error, reader) = try Self.read(sample: "google/Timeline Edits.json")
        #expect(error == nil)
        #expect(reader.shape == .timelineEdits)
        let expected: [ImportedItem] = [
                .fix(
                    Fix(
                        time: Self.time("2022-11-05T14:03:07.25Z"), coordinate: Self.at(51.5007, -0.1246), altitude: 21,
                        horizontalAccuracy: 12.5, speed: 1.5)),
                .fix(Fix(time: Self.time("2022-11-05T14:05:00Z"), coordinate: Self.at(51.501, -0.125), horizontalAccuracy: 5)),
        ]
        #expect(items == expected)
    }

    @Test func geoJSONGivesTimedPointsAndTimedLinesAndCountsTheRest() throws {
        let (items, error, reader) = try Self.read(sample: "geojson/track.geojson")
        #expect(error == nil)
        #expect(reader.shape == .geoJSON)
        #expect(reader.skipped == 2)
        #expect(reader.untimedLines == 1)
        let expected: [ImportedItem] = [
                .fix(
                    Fix(
                        time: Self.time("2023-05-01T10:00:00Z"), coordinate: Self.at(52.52, 13.405), altitude: 34.5, horizontalAccuracy: 5,
                        speed: 1.4, course: 90)),
                .fix(Fix(time: Self.time("2023-05-01T10:01:00Z"), coordinate: Self.at(52.521, 13.406))),
                .fix(Fix(time: Self.time("2023-05-01T10:05:00Z"), coordinate: Self.at(52.522, 13.407), altitude: 35)),
                .fix(Fix(time: Self.time("2023-05-01T10:05:10.5Z"), coordinate: Self.at(52.523, 13.408), altitude: 36)),
                .fix(Fix(time: Self.time("2023-05-01T10:05:20Z"), coordinate: Self.at(52.524, 13.409), altitude: 37)),
        ]
        #expect(items == expected)
    }

    @Test func overlandBatchesAreTheirOwnShapeUnderTheSameKeyAsRecords() throws {
        let (items, error, reader) = try Self.read(sample: "geojson/overland.json")
        #expect(error == nil)
        #expect(reader.shape == .overland)
        let expected: [ImportedItem] = [
                .fix(
                    Fix(
                        time: Self.time("2017-01-24T00:36:51Z"), coordinate: Self.at(45.5231, -122.621), altitude: 43,
                        horizontalAccuracy: 30, verticalAccuracy: 6, speed: 4, course: 174)),
                .fix(Fix(time: Self.time("2017-01-24T00:36:52Z"), coordinate: Self.at(45.5232, -122.622), horizontalAccuracy: 65)),
        ]
        #expect(items == expected)
    }

    @Test func aSingleFeatureDocumentAndEpochMillisecondsAreRead() {
        let (items, error, reader) = Self.read(
            #"{"properties": {"time": 1682935200500}, "type": "Feature", "geometry": {"type": "Point", "coordinates": [13.405, 52.52]}}"#)
        #expect(error == nil)
        #expect(reader.shape == .geoJSON)
        #expect(items == [.fix(Fix(time: Self.time("2023-05-01T10:00:00.5Z"), coordinate: Self.at(52.52, 13.405)))])
    }

    @Test(arguments: [
        ("google/Records.json", JSONHistoryShape.googleRecords), ("google/Semantic-2021_JUNE.json", .semanticLocationHistory),
        ("google/Timeline.json", .androidTimeline), ("google/location-history.json", .iosTimeline),
        ("google/Timeline Edits.json", .timelineEdits), ("geojson/track.geojson", .geoJSON), ("geojson/overland.json", .overland),
    ])
    func theContentNotTheNameSaysTheShape(sample: String, shape: JSONHistoryShape) throws {
        let (items, error, reader) = Self.read(ImportInput(bytes: try SampleReading.bytes(sample), name: "export.dat"))
        #expect(error == nil)
        #expect(reader.shape == shape)
        #expect(!items.isEmpty)
    }
}
