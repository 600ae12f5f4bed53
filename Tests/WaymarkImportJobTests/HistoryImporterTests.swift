import Foundation
import Testing
import WaymarkCore
import WaymarkImport
import WaymarkImportJob
import WaymarkStore

@Suite struct HistoryImporterTests {
    @Test func importedHistoryHasTheRegionEventsReplayComputes() throws {
        let rig = try ImportRig()
        let outcome = try rig.run([ImportRig.ride])
        let expected = try rig.replayedRecords(ImportRig.ride)
        #expect(!expected.isEmpty, "the sample ride crosses the sample regions")
        #expect(try rig.storedRecords() == expected)
        #expect(outcome.record.state == .done)
        #expect(outcome.record.events == Int64(expected.count))
        #expect(outcome.record.fixesAdded == Int64(try rig.fixCount()))
        #expect(outcome.record.fixesPresent == 0)
    }

    @Test func theSameFileAgainAddsNothingAndSaysSo() throws {
        let rig = try ImportRig()
        let first = try rig.run([ImportRig.ride])
        let again = try rig.run([ImportRig.ride])
        #expect(again.record.fixesAdded == 0)
        #expect(again.record.fixesPresent == first.record.fixesAdded)
        #expect(again.alreadyImported == [ImportRig.ride])
        #expect(again.summary.hasPrefix("imported 0 new, \(ImportOutcome.grouped(first.record.fixesAdded)) already present"))
        // Read again on request: still nothing twice.
        let reread = try rig.run([ImportRig.ride], reread: true)
        #expect(reread.record.fixesAdded == 0)
        #expect(reread.record.fixesPresent == first.record.fixesAdded)
        #expect(try rig.fixCount() == Int(first.record.fixesAdded))
        #expect(try rig.storedRecords().count == Int(first.record.events))
    }

    @Test func anOverlappingExportAddsOnlyWhatIsNew() throws {
        let rig = try ImportRig()
        let lines = try String(contentsOfFile: ImportRig.ride, encoding: .utf8)
        let points = lines.components(separatedBy: "<trkpt").count - 1
        // The first half of the ride as its own file, then the whole ride.
        let half = try rig.folder.write("half.gpx", Self.truncatedGPX(lines, keepingPoints: points / 2))
        let first = try rig.run([half])
        let whole = try rig.run([ImportRig.ride])
        #expect(first.record.fixesAdded > 0)
        #expect(whole.record.fixesPresent == first.record.fixesAdded)
        #expect(try rig.fixCount() == Int(first.record.fixesAdded + whole.record.fixesAdded))
    }

    @Test func importedEventsAreQuietUnlessDelivered() throws {
        let rig = try ImportRig()
        let quiet = try rig.run([ImportRig.ride], device: "quiet")
        #expect(quiet.record.events > 0)
        #expect(try rig.store.outputEvents(after: 0, limit: 10_000).isEmpty)
        let loud = try rig.run([ImportRig.ride], device: "loud", deliver: true)
        let delivered = try rig.store.outputEvents(after: 0, limit: 10_000)
        #expect(delivered.count == Int(loud.record.events))
        #expect(delivered.allSatisfy { $0.device == "loud" })
    }

    @Test func aTruncatedFileKeepsWhatWasReadAndSaysWhereItStopped() throws {
        let rig = try ImportRig()
        let text = try String(contentsOfFile: ImportRig.ride, encoding: .utf8)
        let cut = try rig.folder.write("cut.gpx", String(text.prefix(text.count * 2 / 3)))
        let outcome = try rig.run([cut])
        #expect(outcome.record.state == .failed)
        #expect(outcome.failures.count == 1)
        #expect(outcome.failures.first?.file == cut)
        #expect(outcome.record.error?.contains("cut.gpx") == true)
        #expect(outcome.record.fixesAdded > 0)
        #expect(try rig.fixCount() == Int(outcome.record.fixesAdded))
        // The same command with the whole file completes, without duplicates.
        let whole = try rig.run([ImportRig.ride])
        #expect(whole.record.state == .done)
        #expect(whole.record.fixesPresent == outcome.record.fixesAdded)
    }

    @Test func anUnknownFileFailsBeforeAnythingIsWritten() throws {
        let rig = try ImportRig()
        let notes = try rig.folder.write("notes.txt", "shopping: milk, eggs\n")
        #expect(throws: ImportError.self) { try rig.run([notes]) }
        #expect(try rig.store.importRecords().isEmpty)
        #expect(try rig.fixCount() == 0)
    }

    /// `gpx` cut after `keepingPoints` track points, closed again.
    static func truncatedGPX(_ gpx: String, keepingPoints: Int) -> String {
        var parts = gpx.components(separatedBy: "<trkpt")
        let head = parts.removeFirst()
        let kept = parts.prefix(keepingPoints).map { "<trkpt" + $0 }.joined()
        let lastKept = kept.range(of: "</trkpt>", options: .backwards).map { String(kept[..<$0.upperBound]) } ?? kept
        return head + lastKept + "\n</trkseg></trk></gpx>\n"
    }
}
