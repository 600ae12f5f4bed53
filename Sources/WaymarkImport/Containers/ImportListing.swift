/// What the paths given to an import hold: the entries to read, in order, and what was passed
/// over inside folders and archives, with why.
public struct ImportListing: Sendable, Equatable {
    public var entries: [ImportEntry] = []
    public var skipped: [SkippedEntry] = []
    /// The format every entry is read as, when the caller says so.
    var forcedFormat: ImportFormat?

    public init(entries: [ImportEntry] = [], skipped: [SkippedEntry] = []) {
        self.entries = entries
        self.skipped = skipped
    }

    init(forcedFormat: ImportFormat?) {
        self.forcedFormat = forcedFormat
    }
}

/// A file in a folder or archive that is not imported: `name` as an entry's, `reason` for people
/// ("an HTML document", "a symbolic link: not followed").
public struct SkippedEntry: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    public var description: String { "\(name): \(reason)" }
}
