import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkOutputs

extension FleetDatabase {
    /// Adds `output`, or updates the one of its name (`fleet import`). An output imported again
    /// keeps when it was created (where its consumer starts) and whether it was stopped.
    public func save(_ output: Output) async throws {
        let filter = String(decoding: try JSONEncoder().encode(output.filter), as: UTF8.self)
        try await client.query(
            """
            INSERT INTO outputs (name, kind, url, format, secret, filter, keep_seconds, location_seconds, disabled, created_at)
            VALUES (\(output.name), \(output.kind.name), \(output.kind.url), \(output.format.rawValue), \(output.secret),
                \(filter)::jsonb, \(output.keepSeconds), \(output.locationSeconds), \(output.disabled), \(output.createdAt.date))
            ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, url = excluded.url, format = excluded.format,
                secret = excluded.secret, filter = excluded.filter, keep_seconds = excluded.keep_seconds,
                location_seconds = excluded.location_seconds
            """, logger: logger)
    }

    /// Every output, by name.
    public func outputs() async throws -> [Output] {
        var outputs: [Output] = []
        let rows = try await client.query(
            "SELECT name, kind, url, format, secret, filter::text, keep_seconds, location_seconds, disabled, created_at FROM outputs ORDER BY name",
            logger: logger)
        for try await (name, kind, url, format, secret, filter, keep, locationSeconds, disabled, created)
            in rows.decode((String, String, String, String, String, String, Int, Int, String?, Date).self)
        {
            outputs.append(
                Output(
                    name: name, kind: kind == "mqtt" ? .mqtt(url: url) : .webhook(url: url),
                    format: Output.Format(rawValue: format) ?? .cloudEvents, secret: secret,
                    filter: try JSONDecoder().decode(OutputFilter.self, from: Data(filter.utf8)), keepSeconds: keep,
                    locationSeconds: locationSeconds, disabled: disabled, createdAt: Timestamp(date: created)))
        }
        return outputs
    }

    /// An event the output gave up on after its keep time.
    func deadLetter(_ event: OutputEvent, output: String, error: String) async throws {
        try await client.query(
            """
            INSERT INTO output_dead_letters (output, stream_sequence, device, time, record, error)
            VALUES (\(output), \(event.sequence), \(event.device), \(event.time.date), \(event.record), \(error))
            ON CONFLICT (output, stream_sequence) DO UPDATE SET error = excluded.error, failed_at = now()
            """, logger: logger)
    }

    /// The output's dead letters, oldest first.
    public func deadLetters(output: String) async throws -> [(sequence: Int64, device: String, error: String)] {
        var letters: [(sequence: Int64, device: String, error: String)] = []
        let rows = try await client.query(
            "SELECT stream_sequence, device, error FROM output_dead_letters WHERE output = \(output) ORDER BY stream_sequence",
            logger: logger)
        for try await (sequence, device, error) in rows.decode((Int64, String, String).self) {
            letters.append((sequence, device, error))
        }
        return letters
    }

    /// How many dead letters the output has (`fleet status`), counted by the database.
    func deadLetterCount(output: String) async throws -> Int {
        var count = 0
        let rows = try await client.query("SELECT count(*) FROM output_dead_letters WHERE output = \(output)", logger: logger)
        for try await value in rows.decode(Int.self) { count = value }
        return count
    }

    /// Stops an output for good (its receiver answered 410).
    func disableOutput(_ name: String, reason: String) async throws {
        try await client.query("UPDATE outputs SET disabled = \(reason) WHERE name = \(name)", logger: logger)
    }
}
