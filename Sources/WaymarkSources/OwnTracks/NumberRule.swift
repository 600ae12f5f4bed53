/// What a number must be, for the OwnTracks and OsmAnd decoders: the phrase their errors use
/// (`expected a number between -90 and 90, got …`) and the range it must fall in.
///
/// Every range is physically sensible, not merely finite (issue 48): a value outside it is a
/// located 400 at the decoder, so nothing absurd is stored and replayed to every output on every
/// restart. The bounds are generous — far past any phone — and stated here with their reason.
struct NumberRule {
    var expected: String
    var range: ClosedRange<Double>

    static let latitude = NumberRule(expected: "a number between -90 and 90", range: -90...90)
    static let longitude = NumberRule(expected: "a number between -180 and 180", range: -180...180)
    /// Accuracies and radii: 0 to 1,000 km. A fix known no better than that (IP geolocation
    /// is within a few hundred km) says nothing about where the device is.
    static let metres = NumberRule(expected: "a number of metres between 0 and \(Int(maximumMetres))", range: 0...maximumMetres)
    static let maximumMetres = 1_000_000.0
    /// From 12 km below sea level (the Mariana Trench's floor is at 10.9 km) to 100 km above
    /// it (the Kármán line, where space begins).
    static let altitude = NumberRule(expected: "a number of metres between -12000 and 100000", range: -12_000...100_000)
    static let degrees = NumberRule(expected: "a number of degrees between 0 and 360", range: 0...360)
    /// Speeds up to Earth's escape velocity, 11.2 km/s: nothing that carries a phone and stays
    /// on Earth goes faster (an airliner does 0.25 km/s, the ISS 7.7 km/s).
    static let maximumMetresPerSecond = 11_200.0
    static let kilometresPerHour = NumberRule(speedIn: "km/h", metresPerSecond: 1 / 3.6)
    /// Up to 1,000 kPa, ten atmospheres; phone barometers read 30 to 110 kPa.
    static let kilopascals = NumberRule(expected: "a pressure in kPa between 0 and 1000", range: 0...1_000)
    /// A beacon's distance estimate: metres, as `metres`; Core Location's "unknown" is -1.
    static let beaconDistance = NumberRule(
        expected: "a number of metres between -1 and \(Int(maximumMetres))", range: -1...maximumMetres)
    /// Seconds since 1970 up to 2262-04-11, the last instant `Timestamp` (Int64 nanoseconds)
    /// holds. Times before 1970 are refused: no phone reports them.
    static let unixSeconds = NumberRule(
        expected: "a number of UNIX seconds between 0 and \(maximumUnixSeconds)", range: 0...Double(maximumUnixSeconds))
    static let maximumUnixSeconds = Int64.max / 1_000_000_000

    /// A speed ≥ 0 in `unit`, up to `maximumMetresPerSecond` (rounded down to whole units).
    init(speedIn unit: String, metresPerSecond: Double) {
        let maximum = (Self.maximumMetresPerSecond / metresPerSecond).rounded(.down)
        self.init(expected: "a speed in \(unit) between 0 and \(Int(maximum))", range: 0...maximum)
    }

    init(expected: String, range: ClosedRange<Double>) {
        self.expected = expected
        self.range = range
    }
}
