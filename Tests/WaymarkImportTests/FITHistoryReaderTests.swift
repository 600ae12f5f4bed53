import Foundation
import Testing
import WaymarkCore
import WaymarkImport
import WaymarkTestSupport

@Suite struct FITHistoryReaderTests {
    private func read(_ bytes: [UInt8], name: String = "t.fit") -> (fixes: [Fix], error: ImportError?, reader: FITHistoryReader) {
        var reader = FITHistoryReader(input: ImportInput(bytes: bytes, name: name))
        let (fixes, error) = SampleReading.drain(&reader)
        return (fixes, error, reader)
    }

    @Test func anActivityFromAnotherWriterGivesEveryRecordWithAPosition() throws {
        var reader = FITHistoryReader(input: try ImportInput(path: SampleReading.url("fit/activity.fit").path, name: "activity.fit"))
        let (fixes, error) = SampleReading.drain(&reader)
        #expect(error == nil)
        #expect(fixes.count == 9)
        #expect(reader.recordsWithoutPosition == 1)
        let indices = [0, 1, 2, 3, 5, 6, 7, 8, 9]
        for (fix, index) in zip(fixes, indices) {
            #expect(fix.time == SampleReading.time(Int64(index) * 5))
            #expect(abs(fix.coordinate.latitude - (47.3769 + Double(index) * 0.0005)) < 1e-7)
            #expect(abs(fix.coordinate.longitude - (8.5417 + Double(index) * 0.0007)) < 1e-7)
            #expect(abs(fix.altitude! - (408.0 + Double(index) * 0.4)) < 0.1)
            #expect(abs(fix.speed! - (5.25 + Double(index) * 0.1)) < 0.001)
        }
    }

    @Test func chainedFilesBigEndianDeveloperFieldsAndCompressedTimestamps() throws {
        let (fixes, error, reader) = read(try SampleReading.bytes("fit/features.fit"))
        #expect(error == nil)
        #expect(reader.recordsWithoutPosition == 1)
        let expected: [(Int64, Double, Double, Double?, Double?)] = [
            (100, 51.5007, -0.1246, 35, 1.5), (101, 51.5008, -0.1247, nil, nil),
            (62, -33.8568, 151.2153, 12, 2.75), (63, -33.8569, 151.2154, 13.2, nil), (64, -33.8570, 151.2155, 14.4, nil),
        ]
        #expect(fixes.count == expected.count)
        for (fix, want) in zip(fixes, expected) {
            #expect(fix.time == SampleReading.time(want.0))
            #expect(abs(fix.coordinate.latitude - want.1) < 1e-7)
            #expect(abs(fix.coordinate.longitude - want.2) < 1e-7)
            #expect(fix.altitude.map { ($0 * 10).rounded() / 10 } == want.3)
            #expect(fix.speed == want.4)
        }
    }

    /// gpsbabel's FIT reader (an independent implementation) over the same files: the same
    /// positions, times and altitudes. gpsbabel reads one FIT file per input, so the chained
    /// sample's first file is given alone; its second file is left out because gpsbabel 1.8.0
    /// resolves compressed timestamps differently from the protocol's rule (fitparse agrees
    /// with this reader there).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsbabel")))
    func gpsbabelReadsTheSameFixes() async throws {
        let features = try SampleReading.bytes("fit/features.fit")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.fit")
        try Data(features[0..<97]).write(to: first)
        for url in [SampleReading.url("fit/activity.fit"), first] {
            var reader = FITHistoryReader(input: try ImportInput(path: url.path))
            let ours = SampleReading.drain(&reader).fixes
            let theirs = try await gpsbabel(url)
            #expect(theirs.count == ours.count)
            for (fix, row) in zip(ours, theirs) {
                #expect(String(format: "%.6f,%.6f", fix.coordinate.latitude, fix.coordinate.longitude) == row.position)
                #expect(fix.time?.rfc3339 == row.time)
                #expect(fix.altitude.map { String(format: "%.1f", $0) } ?? "" == row.altitude)
            }
        }
    }

    private func gpsbabel(_ url: URL) async throws -> [(position: String, altitude: String, time: String)] {
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gpsbabel"),
            ["-t", "-i", "garmin_fit", "-f", url.path, "-o", "unicsv,utc=0", "-F", "-"])
        #expect(result.status == 0, "gpsbabel: \(result.stderr)")
        let output = result.stdout
        let lines = output.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        let column = { (name: String) in header.firstIndex(of: name)! }
        return lines.dropFirst().map { row in
            let date = row[column("Date")].replacingOccurrences(of: "/", with: "-")
            return ("\(row[column("Latitude")]),\(row[column("Longitude")])", row[column("Altitude")], "\(date)T\(row[column("Time")])Z")
        }
    }

    // MARK: - Failures

    @Test func anEmptyInputOrAnotherFormatIsNotAFITFile() {
        #expect(read([]).error?.code == .unknownFormat)
        let gpx = read(Array("<?xml version=\"1.0\"?><gpx></gpx>".utf8))
        #expect(gpx.error?.code == .unknownFormat)
        #expect(gpx.error?.position == .byteOffset(8))
    }

    @Test func aWrongHeaderCRCIsAnErrorAtItsOffset() throws {
        var bytes = try SampleReading.bytes("fit/features.fit")
        bytes[97 + 12] ^= 0x01
        let result = read(bytes)
        #expect(result.fixes.count == 2)  // the first chained file's
        #expect(result.error?.code == .syntax)
        #expect(result.error?.position == .byteOffset(109))
        #expect(result.error?.message.contains("header CRC mismatch: bytes 109–110") == true)
    }

    @Test func aWrongFileCRCIsAnErrorNamingTheOffsetsAfterTheFixesBeforeIt() throws {
        var bytes = try SampleReading.bytes("fit/activity.fit")
        bytes[bytes.count - 1] ^= 0x10
        let result = read(bytes, name: "ride.fit")
        #expect(result.fixes.count == 9)
        #expect(result.error?.code == .syntax)
        let at = bytes.count - 2
        #expect(result.error?.position == .byteOffset(at))
        #expect(result.error?.description.hasPrefix("ride.fit: byte \(at): file CRC mismatch: bytes \(at)–\(at + 1) hold") == true)
        #expect(result.error?.message.contains("bytes 0–\(at - 1) give") == true)
    }

    @Test func aTruncatedFileKeepsTheRecordsBeforeTheCut() throws {
        let bytes = try SampleReading.bytes("fit/activity.fit")
        let result = read(Array(bytes[0..<(bytes.count - 60)]))
        #expect(result.error?.code == .truncated)
        #expect((1..<9).contains(result.fixes.count))
        guard case .byteOffset(let offset)? = result.error?.position else {
            Issue.record("expected a byte offset, got \(String(describing: result.error))")
            return
        }
        #expect(offset <= bytes.count - 60)
        // Cut inside the header, and before the file CRC.
        #expect(read(Array(bytes[0..<7])).error?.code == .truncated)
        let beforeCRC = read(Array(bytes[0..<(bytes.count - 1)]))
        #expect(beforeCRC.fixes.count == 9)
        #expect(beforeCRC.error?.code == .truncated)
        #expect(beforeCRC.error?.position == .byteOffset(bytes.count - 2))
    }

    @Test func aDataMessageOfAnUndefinedLocalTypeIsASyntaxError() {
        var file = FITTestFile()
        file.defineRecord(local: 0)
        file.record(local: 1, time: FITTestFile.fitTime(unix: 1_700_000_000), latitude: 1, longitude: 2)
        let result = read(file.bytes())
        #expect(result.error?.code == .syntax)
        #expect(result.error?.position == .byteOffset(14 + 15))
        #expect(result.error?.message.contains("local message type 1") == true)
    }

    @Test func anUnknownArchitectureIsASyntaxError() {
        var file = FITTestFile()
        file.defineRecord()
        file.data[2] = 7
        let result = read(file.bytes())
        #expect(result.error?.code == .syntax)
        #expect(result.error?.position == .byteOffset(16))
    }

    @Test func aMessageRunningPastTheDataSizeIsASyntaxError() {
        var file = FITTestFile()
        file.defineRecord()
        file.record(time: FITTestFile.fitTime(unix: 1_700_000_000), latitude: 1, longitude: 2)
        var bytes = file.bytes()
        bytes[4] = UInt8(file.data.count - 3)  // the data size now ends inside the record
        bytes[12] = 0
        bytes[13] = 0  // no header CRC
        let result = read(bytes)
        #expect(result.error?.code == .syntax)
        #expect(result.error?.message.contains("runs past the end of the FIT data") == true)
        #expect(result.error?.position == .byteOffset(14 + 15))
    }

    @Test func bytesAfterTheLastFileThatAreNotAFileAreAnError() throws {
        let bytes = try SampleReading.bytes("fit/activity.fit")
        let result = read(bytes + Array(repeating: 0, count: 20))
        #expect(result.fixes.count == 9)
        #expect(result.error?.code == .syntax)
        #expect(result.error?.position == .byteOffset(bytes.count))
    }

    @Test func aFileWithoutPositionsIsUnsupported() {
        var file = FITTestFile()
        file.define(local: 0, global: 0, [(0, 1, 0x00)])
        file.data += [0, 4]
        file.define(local: 1, global: 20, [(253, 4, 0x86), (3, 1, 0x02)])  // timestamp and heart rate
        file.data += [1] + FITTestFile.littleEndian(FITTestFile.fitTime(unix: 1_700_000_000)) + [140]
        let result = read(file.bytes())
        #expect(result.error?.code == .unsupported)
        #expect(result.error?.message.contains("an activity") == true)
        #expect(result.reader.recordsWithoutPosition == 1)
    }

    @Test func aCourseIsRefused() {
        var file = FITTestFile()
        file.define(local: 0, global: 0, [(0, 1, 0x00)])
        file.data += [0, 6]
        let result = read(file.bytes())
        #expect(result.error?.code == .unsupported)
        #expect(result.error?.message.contains("course") == true)
    }

    @Test func aRecordWithAnImpossibleLatitudeIsAnInvalidValue() {
        var file = FITTestFile()
        file.defineRecord()
        file.record(time: FITTestFile.fitTime(unix: 1_700_000_000), latitude: 120, longitude: 2)
        let result = read(file.bytes())
        #expect(result.error?.code == .invalidValue)
        #expect(result.error?.position == .byteOffset(29))
    }

    @Test func recordsBeforeAnyTimestampOrWithADeviceTimeAreSkipped() {
        var file = FITTestFile()
        file.define(local: 0, global: 20, [(0, 4, 0x85), (1, 4, 0x85)])
        file.data += [0x80] + FITTestFile.littleEndian(UInt32(bitPattern: FITTestFile.semicircles(10)))
            + FITTestFile.littleEndian(UInt32(bitPattern: FITTestFile.semicircles(20)))  // compressed, no time before it
        file.defineRecord(local: 1)
        file.record(local: 1, time: 5000, latitude: 10, longitude: 20)  // seconds since power-on
        file.record(local: 1, time: FITTestFile.fitTime(unix: 1_700_000_000), latitude: 10, longitude: 20)
        let result = read(file.bytes())
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.reader.recordsWithoutTime == 2)
    }

    /// 200,000 records (3.4 MB) from a file, read through the input's fixed buffer.
    @Test func aLargeFileIsStreamed() throws {
        var file = FITTestFile()
        file.defineRecord()
        let start = FITTestFile.fitTime(unix: 1_700_000_000)
        let count = 200_000
        for index in 0..<count {
            file.record(time: start + UInt32(index), latitude: 47 + Double(index % 1000) * 1e-5, longitude: 8)
        }
        let (read, last) = try SampleReading.streamed(file.bytes(), suffix: "fit") { FITHistoryReader(input: $0) }
        #expect(read == count)
        #expect(last?.time == SampleReading.time(Int64(count - 1)))
    }
}
