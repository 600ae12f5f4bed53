/// What a region may be (docs/semantics.md §3): limits every way in — GeoJSON files, the API,
/// `regions add-beacon` — checks, so a hostile or mistaken input is refused with a reason
/// instead of stored.
public enum RegionLimits {
    /// UTF-8 bytes of an identifier.
    public static let maximumIdentifierBytes = 256
    /// Metres: a circle this large is no longer a place (a 1,000 km radius covers a country).
    public static let maximumRadius = 1_000_000.0
    /// Positions of one region, over all its rings: a detailed country border fits; a polygon
    /// beyond it costs the index megabytes for nothing a geofence needs.
    public static let maximumVertices = 100_000
    /// Largest `priority` either way: ranks, not quantities; a bound keeps them exact everywhere
    /// they travel (JSON numbers, SQLite, Home Assistant).
    public static let maximumPriority = 1_000_000

    /// Why `identifier` cannot name a region, or nil. Identifiers are printed in logs, put in
    /// URL paths and MQTT topics and shown in Home Assistant: 1 to 256 bytes of text, no control
    /// characters (NUL, newlines, …), and no `.` or `..` path segment (`../x`).
    public static func problem(withIdentifier identifier: String) -> String? {
        guard !identifier.isEmpty else { return "the identifier is an empty string" }
        guard identifier.utf8.count <= maximumIdentifierBytes else {
            return "the identifier has \(identifier.utf8.count) bytes; at most \(maximumIdentifierBytes)"
        }
        if let control = identifier.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "the identifier contains the control character U+\(String(control.value, radix: 16, uppercase: true).leftPadded(to: 4))"
        }
        if identifier.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
            return "the identifier has a '.' or '..' path segment"
        }
        return nil
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
