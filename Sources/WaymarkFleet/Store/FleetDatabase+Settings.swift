import PostgresNIO

extension FleetDatabase {
    /// The fleet's partition count, the same for every node. The first node given one
    /// (`--partitions`), or else the first ingest node (`mayChoose`, with
    /// `defaultPartitions`), sets it; other nodes wait until it is set. Asking for another
    /// count than the fleet has is an error: fixes would go to partitions nobody reads.
    public func partitions(requested: Int?, mayChoose: Bool) async throws -> Int {
        if let initial = requested ?? (mayChoose ? Self.defaultPartitions : nil) {
            try await client.query(
                "INSERT INTO fleet_settings (partitions) VALUES (\(initial)) ON CONFLICT (singleton) DO NOTHING", logger: logger)
        }
        var waited = false
        while true {
            if let partitions = try await currentPartitions() {
                return try checked(partitions, requested: requested)
            }
            if !waited {
                logger.notice("waiting for the first ingest node to set the fleet's partition count")
                waited = true
            }
            try await Task.sleep(for: .milliseconds(250))
        }
    }

    /// The partition count, nil before any node has set it.
    public func currentPartitions() async throws -> Int? {
        var partitions: Int?
        for try await value in try await client.query("SELECT partitions FROM fleet_settings", logger: logger).decode(Int.self) {
            partitions = value
        }
        return partitions
    }

    private func checked(_ partitions: Int, requested: Int?) throws -> Int {
        if let requested, requested != partitions {
            throw FleetError("--partitions \(requested): the fleet at \(address) has \(partitions) partitions, fixed when it was first started")
        }
        return partitions
    }

    /// Sixteen: enough for a handful of workers to share evenly, few enough that each
    /// partition's consumer stays busy.
    public static let defaultPartitions = 16
}
