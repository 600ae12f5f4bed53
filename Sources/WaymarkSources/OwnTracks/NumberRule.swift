/// What a number must be, for the OwnTracks and OsmAnd decoders: the phrase their errors use
/// (`expected a number between -90 and 90, got …`) and the range it must fall in.
struct NumberRule {
    var expected: String
    var range: ClosedRange<Double>

    static let latitude = NumberRule(expected: "a number between -90 and 90", range: -90...90)
    static let longitude = NumberRule(expected: "a number between -180 and 180", range: -180...180)
    static let metres = NumberRule(expected: "a number of metres ≥ 0", range: 0...Double.greatestFiniteMagnitude)
    static let altitude = NumberRule(
        expected: "a number of metres", range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    static let degrees = NumberRule(expected: "a number of degrees between 0 and 360", range: 0...360)
    static let kilometresPerHour = NumberRule(expected: "a speed in km/h ≥ 0", range: 0...Double.greatestFiniteMagnitude)
    static let kilopascals = NumberRule(expected: "a pressure in kPa ≥ 0", range: 0...Double.greatestFiniteMagnitude)
    static let finite = NumberRule(
        expected: "a number", range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    /// Seconds since 1970 up to 2262-04-11, the last instant `Timestamp` (Int64 nanoseconds)
    /// holds. Times before 1970 are refused: no phone reports them.
    static let unixSeconds = NumberRule(
        expected: "a number of UNIX seconds between 0 and \(maximumUnixSeconds)", range: 0...Double(maximumUnixSeconds))
    static let maximumUnixSeconds = Int64.max / 1_000_000_000
}
