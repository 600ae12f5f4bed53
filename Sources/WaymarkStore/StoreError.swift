/// Why the store could not do what was asked. `code` is stable (scripts and tests match on it);
/// `message` says what to do about it.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The database file cannot be opened or created, or is not an SQLite database.
        public static let cannotOpen = Code(rawValue: "store.cannot-open")
        /// SQLite could not load the `mod_spatialite` extension.
        public static let spatialiteUnavailable = Code(rawValue: "store.spatialite-unavailable")
        /// Setting up SpatiaLite metadata or running a schema migration failed.
        public static let migrationFailed = Code(rawValue: "store.migration-failed")
        /// One or more regions were rejected; `rejected` lists each with its reason.
        public static let invalidRegions = Code(rawValue: "store.invalid-regions")
        /// An imported identifier is already in the store (and `replace` was false), or occurs
        /// twice in one import.
        public static let duplicateIdentifier = Code(rawValue: "store.duplicate-identifier")
        /// A stored row cannot be turned back into a region (corrupt or foreign data).
        public static let corruptRegion = Code(rawValue: "store.corrupt-region")
        /// A history record the schema refuses: an untimed fix, a coordinate out of range, an
        /// event record that is not one JSON object on one line…
        public static let invalidRecord = Code(rawValue: "store.invalid-record")
        /// Any other SQLite failure (disk full, I/O error, locked database…).
        public static let database = Code(rawValue: "store.database")
        /// A write was submitted to a `StoreWriter` after it was closed; it was not written.
        public static let writerClosed = Code(rawValue: "store.writer-closed")
    }

    public var code: Code
    public var message: String
    /// The database file concerned, when there is one.
    public var path: String?
    /// For `invalidRegions`: every rejected region and why.
    public var rejected: [RejectedRegion]
    /// For `duplicateIdentifier`: the identifiers concerned.
    public var identifiers: [String]

    public init(
        code: Code, message: String, path: String? = nil, rejected: [RejectedRegion] = [],
        identifiers: [String] = []
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.rejected = rejected
        self.identifiers = identifiers
    }

    public var description: String { "\(code): \(message)" }
}

/// A region an import did not accept, and why.
public struct RejectedRegion: Sendable, Equatable, CustomStringConvertible {
    public var identifier: String
    /// For polygons, SpatiaLite's `ST_IsValidReason`, e.g. `Self-intersection[0.5 0.5]`.
    public var reason: String

    public init(identifier: String, reason: String) {
        self.identifier = identifier
        self.reason = reason
    }

    public var description: String { "\(identifier): \(reason)" }
}
