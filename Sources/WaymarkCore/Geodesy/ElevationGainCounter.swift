import Foundation

/// Elevation gain and loss from noisy GPS altitudes: smoothing along the distance travelled,
/// then a hysteresis threshold.
///
/// 1. **Smoothing.** An exponential moving average over distance: each altitude moves the
///    smoothed value by the fraction 1 − exp(−Δd / `smoothingDistance`), where Δd is the
///    horizontal distance from the previous point with an altitude. Standing still (Δd ≈ 0)
///    hardly moves it, so a stop's scattered altitudes average out; a bicycle at 10 m per fix
///    averages about the last 5 fixes, a walker the last 35.
/// 2. **Hysteresis.** The smoothed altitude is cut into swings between turning points, and a
///    turning point counts only once the altitude has moved `threshold` metres back from it:
///    a climb is counted in full (from the last valley to the peak) when the altitude has come
///    down `threshold` metres from the peak, or at the end. Wobbles smaller than the threshold
///    count nothing, so a flat walk stays near zero, while a real climb loses nothing at its
///    top and bottom.
///
/// Defaults: 50 m smoothing distance, 5 m threshold (the tests check a noisy flat walk, hills
/// of known shape, the simulated ride and a real hike).
public struct ElevationGainCounter: Sendable {
    public var smoothingDistance: Double
    public var threshold: Double
    private var countedGain = 0.0
    private var countedLoss = 0.0
    private var smoothed: Double?
    /// The last turning point counted, the extreme reached since, and which way it goes.
    private var reference = 0.0
    private var extreme = 0.0
    private var direction = 0

    public init(smoothingDistance: Double = 50, threshold: Double = 5) {
        self.smoothingDistance = smoothingDistance
        self.threshold = threshold
    }

    /// Metres climbed, the swing under way included.
    public var gain: Double { countedGain + (direction > 0 ? extreme - reference : 0) }
    /// Metres descended, the swing under way included.
    public var loss: Double { countedLoss + (direction < 0 ? reference - extreme : 0) }

    /// The next altitude, `distance` metres (horizontal) after the previous one.
    public mutating func add(altitude: Double, distance: Double) {
        guard var value = smoothed else {
            smoothed = altitude
            reference = altitude
            extreme = altitude
            return
        }
        value += (altitude - value) * (1 - exp(-max(0, distance) / smoothingDistance))
        smoothed = value
        switch direction {
        case 1 where value > extreme:
            extreme = value
        case 1 where value <= extreme - threshold:
            countedGain += extreme - reference
            (reference, extreme, direction) = (extreme, value, -1)
        case -1 where value < extreme:
            extreme = value
        case -1 where value >= extreme + threshold:
            countedLoss += reference - extreme
            (reference, extreme, direction) = (extreme, value, 1)
        case 0 where abs(value - reference) >= threshold:
            (extreme, direction) = (value, value > reference ? 1 : -1)
        default:
            break
        }
    }
}
