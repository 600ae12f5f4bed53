import ArgumentParser
import Logging
import Foundation
import WaymarkCore
import WaymarkDevices
import WaymarkStore
import WaymarkTimelineJob

/// The range of a timeline as `waymark timeline` and `waymark export --timeline` take it: a local
/// `--day`, `--from` and `--to`, or by default the latest local day the device has history for.
struct TimelineRangeOptions {
    var device: String
    var day: String?
    var from: String?
    var to: String?

    /// Usage errors, naming the flag.
    func validate() throws {
        if let problem = DeviceName.problem(with: device) { throw ValidationError("--device: \(problem)") }
        if day != nil, from != nil || to != nil { throw ValidationError("--day: give either --day or --from and --to, not both") }
        if let day { _ = try Self.day(day) }
        switch (from, to) {
        case (nil, nil): break
        case (nil, _?): throw ValidationError("--from: missing; --to goes with --from")
        case (_?, nil): throw ValidationError("--to: missing; --from goes with --to")
        case (let from?, let to?):
            let start = try HistoryCommand.time(from, option: "--from")
            let end = try HistoryCommand.time(to, option: "--to")
            if !(start < end) { throw ValidationError("--from \(from) is not before --to \(to)") }
        }
    }

    /// The timeline job over the store at `path` (which must exist), with place names and zones
    /// when the place data is installed (docs/places.md); the store and the data read off the pool.
    static func job(database path: String, logger: Logger) async throws -> TimelineJob {
        let store = try await WaymarkStore.open(path: path, logger: logger)
        let places = try await store.offPool { _ in
            do {
                return try PlaceDataFile.loadIfInstalled()
            } catch {
                throw CommandError("\(error)")
            }
        }
        return TimelineJob(store: store, places: places, logger: logger)
    }

    /// The timeline over the range asked for.
    func timeline(_ job: TimelineJob) async throws -> Timeline {
        do {
            let range = try await range(job)
            return try await job.timeline(device: device, from: range.from, to: range.to, timeZone: range.timeZone)
        } catch let error as TimelineError {
            throw CommandError(error.code == .unknownDevice ? "--device: \(error.message)" : error.message)
        }
    }

    /// --from/--to, a --day in the zone where the device was, or the device's latest day.
    func range(_ job: TimelineJob) async throws -> (from: Timestamp, to: Timestamp, timeZone: String?) {
        if let from, let to {
            return (try HistoryCommand.time(from, option: "--from"), try HistoryCommand.time(to, option: "--to"), nil)
        }
        if let day { return try await job.day(device: device, try Self.day(day)) }
        guard let latest = try await job.latestDay(device: device) else {
            // The job refuses a device it does not know (`TimelineError.unknownDevice`); a known
            // one may have no history yet.
            _ = try await job.timeline(device: device, from: Timestamp(nanosecondsSince1970: 0), to: Timestamp(nanosecondsSince1970: 1))
            throw CommandError("--device: \(device) has no history yet, nothing to show (another device: --device NAME)")
        }
        return latest
    }

    /// `--day`: a calendar date.
    static func day(_ text: String) throws -> TimelineDay {
        do {
            return try TimelineDay(text)
        } catch {
            throw ValidationError("--day: \(error.message)")
        }
    }
}
