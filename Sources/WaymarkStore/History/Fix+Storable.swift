import WaymarkCore

extension Fix {
    /// Why the history would refuse this fix (the `fixes` table's CHECK constraints), or nil
    /// when it can be stored. Callers that batch many fixes into one submission check first,
    /// so one unstorable fix cannot fail the fixes around it.
    public var historyRefusal: String? {
        if time == nil { return "an untimed fix cannot be placed in the history" }
        if !coordinate.isValid { return "latitude \(coordinate.latitude), longitude \(coordinate.longitude) is not on Earth" }
        let nonNegative: [(String, Double?)] = [
            ("horizontal accuracy", horizontalAccuracy), ("vertical accuracy", verticalAccuracy),
            ("latitude accuracy", latitudeAccuracy), ("longitude accuracy", longitudeAccuracy),
            ("hdop", hdop), ("vdop", vdop), ("pdop", pdop), ("satellites", satellites.map(Double.init)),
        ]
        for (name, value) in nonNegative {
            if let value, value < 0 { return "\(name) \(value) is negative" }
        }
        return nil
    }
}
