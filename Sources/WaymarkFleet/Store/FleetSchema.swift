import Foundation

/// The fleet's PostgreSQL/PostGIS schema (docs/fleet.md): the single daemon's store keyed by
/// device, on another engine. Applied by whichever node starts first, under an advisory lock,
/// one numbered step at a time; `fleet_schema` records the steps applied.
enum FleetSchema {
    /// The advisory-lock class of the fleet: (class, 0) guards migrations, (class, p + 1) is
    /// partition p's ownership.
    static let lockClass: Int32 = 0x5741_594D  // "WAYM"
    /// The class of outputs' ownership: (class, FNV-1a of the output's name).
    static let outputLockClass: Int32 = 0x5741_594F  // "WAYO"

    static let steps: [(version: Int, sql: String)] = [
        (1, version1),
        (2, version2),
        (3, version3),
        (4, version4),
        (5, version5),
    ]

    /// A step's statements: split at a `;` that ends a line (no statement here has one inside),
    /// comments dropped.
    static func statements(_ sql: String) -> [String] {
        let lines = sql.split(separator: "\n").map { line in line.range(of: "--").map { String(line[..<$0.lowerBound]) } ?? String(line) }
        return lines.joined(separator: "\n").components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
    }

    /// Api nodes (`--role api`) heartbeat like the others, so `fleet status` lists them.
    static let version5 = """
        ALTER TABLE fleet_nodes DROP CONSTRAINT fleet_nodes_role_check;
        ALTER TABLE fleet_nodes ADD CONSTRAINT fleet_nodes_role_check CHECK (role IN ('ingest', 'worker', 'output', 'api'));
        """

    /// Beacon regions (docs/semantics.md §3.5): an inside region's latest sighting, saved as the
    /// single daemon saves it, so the next owner of a partition times the exit from it.
    static let version4 = """
        ALTER TABLE region_state ADD COLUMN last_seen timestamptz;
        """

    /// Outputs (docs/outputs.md) as the single daemon defines them; output nodes deliver each
    /// from the events stream with a durable consumer of its own, which is also its cursor.
    /// An event given up on after the output's keep time is kept as a dead letter.
    static let version3 = """
        CREATE TABLE outputs (
            name text PRIMARY KEY,
            kind text NOT NULL CHECK (kind IN ('webhook', 'mqtt')),
            url text NOT NULL,
            format text NOT NULL,
            secret text NOT NULL,
            filter jsonb NOT NULL,  -- OutputFilter, as the single daemon's store keeps it
            keep_seconds integer NOT NULL CHECK (keep_seconds > 0),
            location_seconds integer NOT NULL CHECK (location_seconds >= 0),  -- positions' thinning
            disabled text,  -- why the output stopped (a receiver's 410); NULL while it delivers
            created_at timestamptz NOT NULL  -- its consumer starts with the events of this moment
        );

        CREATE TABLE output_dead_letters (
            output text NOT NULL REFERENCES outputs ON DELETE CASCADE,
            stream_sequence bigint NOT NULL,  -- the event's sequence on WAYMARK_EVENTS
            device text NOT NULL,
            time timestamptz NOT NULL,
            record text NOT NULL,
            error text NOT NULL,
            failed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (output, stream_sequence)
        );

        ALTER TABLE fleet_nodes ADD COLUMN outputs text[] NOT NULL DEFAULT '{}';
        """

    /// Events are published to the bus after their transaction commits (an outbox): a flag
    /// says which are out, so a new owner publishes what its predecessor did not get to.
    static let version2 = """
        ALTER TABLE events ADD COLUMN published boolean NOT NULL DEFAULT false;
        CREATE INDEX events_unpublished ON events (device, time) WHERE NOT published;
        """

    static let version1 = """
        CREATE EXTENSION IF NOT EXISTS postgis;

        -- The partition count is the fleet's: every node reads it, ingest nodes hash devices with it.
        CREATE TABLE fleet_settings (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            partitions integer NOT NULL CHECK (partitions BETWEEN 1 AND 4096)
        );

        -- Nodes announce themselves; a node whose heartbeat is older than the lease is gone.
        CREATE TABLE fleet_nodes (
            name text PRIMARY KEY,
            role text NOT NULL CHECK (role IN ('ingest', 'worker', 'output')),
            started_at timestamptz NOT NULL,
            heartbeat_at timestamptz NOT NULL,
            regions_version bigint NOT NULL DEFAULT 0,
            partitions integer[] NOT NULL DEFAULT '{}'
        );

        CREATE TABLE devices (
            name text PRIMARY KEY,
            "user" text NOT NULL,
            secret_hash bytea UNIQUE CHECK (secret_hash IS NULL OR length(secret_hash) = 32),
            secret_hint text,
            created_at timestamptz NOT NULL
        );

        -- Regions as the single daemon reads them back (a GeoJSON feature), with PostGIS geometry
        -- for queries; workers decode the features and never ask PostGIS per fix.
        CREATE TABLE regions (
            identifier text PRIMARY KEY,
            feature jsonb NOT NULL,
            geom geometry(Geometry, 4326),
            imported_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX regions_geom ON regions USING gist (geom);
        -- Bumped with every change, so a worker that missed a notification still sees one.
        CREATE SEQUENCE regions_version;

        -- Each device's confirmed region states, and where its input stands: the last stream
        -- sequence applied (a redelivery at or below it was already applied) and when the
        -- device's regions were last established together.
        CREATE TABLE device_state (
            device text PRIMARY KEY,
            last_sequence bigint NOT NULL,
            established_since timestamptz,
            established_written timestamptz,
            updated_at timestamptz NOT NULL
        );
        CREATE TABLE region_state (
            device text NOT NULL,
            region text NOT NULL REFERENCES regions (identifier) ON DELETE CASCADE,
            inside boolean NOT NULL,
            since timestamptz,
            dwelled boolean NOT NULL DEFAULT false,
            PRIMARY KEY (device, region)
        );

        -- History, partitioned by day (the writer makes each day's tables before its first rows), BRIN on time:
        -- rows arrive roughly in time order, so a BRIN index is tiny and enough.
        CREATE TABLE fixes (
            device text NOT NULL,
            sequence bigint NOT NULL,
            time timestamptz NOT NULL,
            position geometry(Point, 4326) NOT NULL,
            altitude double precision,
            accuracy double precision,
            speed double precision,
            course double precision,
            -- When JetStream stored the fix and when its batch was written: the fleet's latency.
            queued_at timestamptz,
            stored_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            PRIMARY KEY (device, sequence, time)
        ) PARTITION BY RANGE (time);
        CREATE INDEX fixes_time ON fixes USING brin (time);

        CREATE TABLE events (
            id text NOT NULL,
            device text NOT NULL,
            time timestamptz NOT NULL,
            kind text NOT NULL,
            region text,
            sequence bigint NOT NULL,
            record text NOT NULL,  -- the JSON record, byte for byte what `waymark replay` prints
            PRIMARY KEY (id, time)
        ) PARTITION BY RANGE (time);
        CREATE INDEX events_time ON events USING brin (time);
        CREATE INDEX events_device ON events (device, time);
        """
}
