/// The formats `waymark import` reads, recognised from the content (`ImportFormat.detect`), never
/// from a file's name. docs/import.md says where each format's description comes from.
public enum ImportFormat: String, Sendable, CaseIterable, Equatable {
    /// JSON documents: Google's location history in all its shapes (Takeout `Records.json`,
    /// Semantic Location History months, Android's `Timeline.json`, iOS's `location-history.json`,
    /// `Timeline Edits.json`), GeoJSON point features, Overland's batches. The document's keys say which.
    case json
    case gpx
    case kml
    case tcx
    case fit
    /// CSV with a header naming the latitude, longitude and time columns.
    case csv
    /// OwnTracks Recorder's `.rec` files: time, TAB, topic, TAB, JSON.
    case owntracksRecorder = "owntracks-rec"
    case nmea
    /// gpsd's JSON (`gpspipe -w`), one report a line.
    case gpsdLog = "gpsd-json"
}
