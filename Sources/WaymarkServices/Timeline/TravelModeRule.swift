/// How a trip was made, from its speed profile alone (docs/timeline.md, "Travel mode"). The
/// rule looks at the time-weighted median (`m`) and 95th percentile (`h`) of the window speeds
/// while moving, in this order:
///
/// 1. **unknown** when the trip covers less than `minimumDistance`, or moved for less than
///    `minimumMovingTime` with no fast silence to go by;
/// 2. **flight** when `h`, or the speed across a silence of at least 1 km, reaches
///    `flightSpeed` (faster than any scheduled train); or a silence spans at least
///    `flightGapDistance` at `flightGapSpeed` or more (a flight seen through a gate that bounds
///    speed at 60 m/s: its fixes are dropped until the average speed since the last fix on the
///    ground falls to the bound, so the silence's speed is at most that); or a trip of at least
///    `longTrip` averages `flightAverage` door to door;
/// 3. **train** when `h` ≥ `trainSpeed` (beyond legal road speeds nearly everywhere);
/// 4. **driving** when `h` ≥ `drivingHighSpeed` or `m` ≥ `drivingMedianSpeed`;
/// 5. **cycling** when `m` ≥ `cyclingMedianSpeed` or `h` ≥ `cyclingHighSpeed`;
/// 6. **running** when `m` ≥ `runningMedianSpeed`;
/// 7. **walking** otherwise.
///
/// A trip without continuous movement (its fixes only at the ends of a silence) is judged by
/// its speed across the silence in place of `m` and `h`. The rule cannot tell a train from a car
/// at the same speeds (a regional train at 100 km/h reads as driving), a bus from a car, or a
/// fast descent on a bicycle held over most of the trip from driving; one trip gets one mode.
public enum TravelModeRule {
    /// Metres: shorter trips are `unknown`.
    public static let minimumDistance = 100.0
    /// Seconds: trips that moved for less (and have no fast silence) are `unknown`.
    public static let minimumMovingTime = 60.0
    /// Metres per second (360 km/h): faster is a flight.
    public static let flightSpeed = 100.0
    /// Metres and metres per second (100 km, 144 km/h): a silence this long and fast is a flight.
    public static let flightGapDistance = 100_000.0
    public static let flightGapSpeed = 40.0
    /// Metres and metres per second (100 km, 252 km/h): a long trip this fast door to door is a flight.
    public static let longTrip = 100_000.0
    public static let flightAverage = 70.0
    /// Metres per second (180 km/h).
    public static let trainSpeed = 50.0
    /// Metres per second (59 km/h and 40 km/h): a fast road cyclist holds a median of 31 km/h
    /// and 95th percentiles up to 54 km/h over a hilly ride (the recorded rides measured).
    public static let drivingHighSpeed = 16.5
    public static let drivingMedianSpeed = 11.0
    /// Metres per second (13 km/h and 22 km/h).
    public static let cyclingMedianSpeed = 3.6
    public static let cyclingHighSpeed = 6.0
    /// Metres per second (8 km/h): a brisk walk stays below.
    public static let runningMedianSpeed = 2.2

    /// The mode of a trip with this speed profile.
    public static func judge(_ profile: SpeedProfile) -> TravelMode {
        guard profile.distance >= minimumDistance else { return .unknown }
        let continuous = profile.movingTime >= minimumMovingTime
        guard continuous || profile.gapSpeed > 0 else { return .unknown }
        let median = continuous ? profile.medianSpeed : profile.gapSpeed
        let high = continuous ? profile.highSpeed : profile.gapSpeed
        if isFlight(profile, high: high) { return .flight }
        if high >= trainSpeed { return .train }
        if high >= drivingHighSpeed || median >= drivingMedianSpeed { return .driving }
        if median >= cyclingMedianSpeed || high >= cyclingHighSpeed { return .cycling }
        if median >= runningMedianSpeed { return .running }
        return .walking
    }

    private static func isFlight(_ profile: SpeedProfile, high: Double) -> Bool {
        max(high, profile.gapSpeed) >= flightSpeed
            || (profile.gapDistance >= flightGapDistance && profile.gapSpeed >= flightGapSpeed)
            || (profile.distance >= longTrip && profile.averageSpeed >= flightAverage)
    }
}
