import WaymarkCore

/// What a line-based log reader has returned and passed over, for the replay summary.
public struct LogTally: Sendable, Equatable {
    /// Fixes returned so far.
    public private(set) var fixes = 0
    /// Of those, fixes without a time.
    public private(set) var untimedFixes = 0
    /// Lines skipped as not of the format (binary protocols in NMEA logs, raw NMEA in gpsd logs).
    public internal(set) var otherLines = 0

    /// Counts `fix` as returned, and returns it.
    mutating func returning(_ fix: Fix) -> Fix {
        fixes += 1
        if fix.time == nil { untimedFixes += 1 }
        return fix
    }
}
