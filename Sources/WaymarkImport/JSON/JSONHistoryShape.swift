/// Which JSON history a document is, told by its keys and its items' shape (never its name).
public enum JSONHistoryShape: String, Sendable, Equatable {
    /// Google Takeout's `Records.json`: `{"locations": [{latitudeE7, longitudeE7, timestamp…}]}`.
    case googleRecords = "google-records"
    /// Google Takeout's Semantic Location History months: `{"timelineObjects": [...]}`.
    case semanticLocationHistory = "google-semantic-location-history"
    /// Google Maps' Android on-device export: `{"semanticSegments": [...], "rawSignals": [...]}`.
    case androidTimeline = "google-timeline-android"
    /// Google Maps' iOS on-device export: a bare array of segments.
    case iosTimeline = "google-timeline-ios"
    /// Google's `Timeline Edits.json`: `{"timelineEdits": [...]}`.
    case timelineEdits = "google-timeline-edits"
    /// A GeoJSON FeatureCollection or Feature.
    case geoJSON = "geojson"
    /// Overland's batch: `{"locations": [GeoJSON Point features]}`.
    case overland
}
