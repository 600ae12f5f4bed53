import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkFleet

/// `FleetDatabase.fixDays` on a real PostgreSQL (scripts/fleet-up.sh --servers-only): the same
/// local days as the single daemon's store gives, counted by `date_trunc` over `AT TIME ZONE`.
@Suite struct FleetFixDaysTests {
    @Test func berlinAndKathmanduDaysAreTheZonesOwn() async throws {
        let times = [
            "2026-03-28T22:59:59Z", "2026-03-28T23:00:00Z", "2026-03-29T21:59:59Z", "2026-03-29T22:00:00Z",
            "2026-05-31T18:14:59Z", "2026-05-31T18:15:00Z",
        ]
        var batch = FleetBatch()
        for (index, text) in times.enumerated() {
            let time = try #require(Timestamp(rfc3339: text))
            let fix = Fix(time: time, coordinate: Coordinate(latitude: 52.5, longitude: 13.4))
            batch.fixes.append(.init(device: "phone", sequence: Int64(index + 1), fix: fix, time: time))
        }
        let logger = Logger(label: "fleet-days-test", factory: { _ in SwiftLogNoOpLogHandler() })
        try await FleetServers.withServers { servers in
            try await FleetDatabase.withDatabase(try PostgresAddress(servers.postgresURL), logger: logger) { database in
                try await database.write(batch)
                func days(_ zone: String, _ device: String = "phone") async throws -> [String] {
                    try await database.fixDays(device: device, timeZone: zone).map { "\($0.date)=\($0.fixes)" }
                }
                #expect(try await days("Europe/Berlin") == ["2026-03-28=1", "2026-03-29=2", "2026-03-30=1", "2026-05-31=2"])
                #expect(try await days("Asia/Kathmandu") == ["2026-03-29=2", "2026-03-30=2", "2026-05-31=1", "2026-06-01=1"])
                #expect(try await days("UTC") == ["2026-03-28=2", "2026-03-29=2", "2026-05-31=2"])
                #expect(try await days("UTC", "tracker").isEmpty)
            }
        }
    }
}
