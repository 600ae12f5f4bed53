/// Recognising a history file's format from its first bytes, never from its name: Google Takeout
/// names files in the user's language, people rename exports, and a `.json` may hold anything.
extension ImportFormat {
    /// How many bytes of an input `detect` wants to see (fewer at the end of a short input).
    public static let detectionPrefixLength = 16 * 1024

    /// The format of an input whose first bytes are `prefix` (up to `detectionPrefixLength` of
    /// them), or nil when it is none that Waymark reads. The rules, first match wins:
    /// - FIT: `.FIT` at bytes 8–11 (the FIT file header, Garmin's FIT SDK).
    /// - XML, after an optional UTF-8 byte order mark, the declaration, comments, processing
    ///   instructions and a doctype: the root element's local name decides — `gpx`, `kml`,
    ///   `TrainingCenterDatabase` (TCX); any other root is none of them.
    /// - Line formats, after blank lines and `#` comment lines (gpsfake's log headers):
    ///   `{"class":` starts a gpsd JSON log; `$` or `!` followed by an NMEA address and a comma
    ///   starts NMEA 0183 (as do three sentences with correct checksums after binary output); `YYYY-MM-DDTHH:MM:SSZ` then a TAB starts an OwnTracks Recorder file.
    /// - JSON: a first non-space byte `{` or `[` (without comment lines before it). Which JSON
    ///   (Google's shapes, GeoJSON, Overland) is the JSON reader's decision.
    /// - CSV: a first line split by `,`, `;` or TAB naming a latitude column and a longitude
    ///   column as the CSV reader finds them (case-insensitive: `lat`, `latitude`, `lat_deg`,
    ///   `Latitude (deg)`, `gps_lat`…; `lon`, `lng`, `long`, `longitude`…).
    public static func detect(_ prefix: [UInt8]) -> ImportFormat? {
        prefix.withUnsafeBufferPointer { detect(in: $0) }
    }

    static func detect(in bytes: UnsafeBufferPointer<UInt8>) -> ImportFormat? {
        if bytes.count >= 12 && bytes[8] == 0x2E && bytes[9] == 0x46 && bytes[10] == 0x49 && bytes[11] == 0x54 {
            return .fit
        }
        let text = DetectionText(bytes)
        let start = text.skippingSpace(from: text.start)
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "<") {
            switch text.xmlRootName(from: start) {
            case "gpx": return .gpx
            case "kml": return .kml
            case "TrainingCenterDatabase": return .tcx
            default: return nil
            }
        }
        if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
            return text.isGpsdReport(at: start) ? .gpsdLog : .json
        }
        let line = text.firstContentLine()
        guard let line, !line.isEmpty else { return nil }
        if text.isGpsdReport(at: line.lowerBound) { return .gpsdLog }
        if text.isNMEA(firstLine: line) { return .nmea }
        if text.isRecorderLine(line) { return .owntracksRecorder }
        if line.lowerBound == start && text.isCSVHeaderWithCoordinates(line) { return .csv }
        return nil
    }
}
