import Foundation

/// Elevation gain and loss from noisy GPS altitudes: smoothing along the distance travelled,
/// then a hysteresis threshold.
///
/// 1. **Smoothing.** An exponential moving average over distance: each altitude moves the
///    smoothed value by the fraction 1 − exp(−Δd / `smoothingDistance`), where Δd is the
///    horizontal distance from the previous point with an altitude. Standing still (Δd ≈ 0)
///    hardly moves it, so a stop's scattered altitudes average out; a bicycle at 10 m per fix
///    averages about the last 5 fixes, a walker the last 35.
/// 2. **Hysteresis.** Climbing is counted only once the smoothed altitude has risen
///    `threshold` metres above the last reference (the last counted level), and then by the
///    whole rise; descending likewise. Wobbles smaller than the threshold count nothing, so a
///    flat walk stays near zero. A final rise or fall smaller than the threshold is not counted
///    (the error is at most `threshold` per direction).
///
/// Defaults: 50 m smoothing distance, 5 m threshold (the tests check a noisy flat walk, a
/// simulated ride with known terrain, and real hikes).
public struct ElevationGainCounter: Sendable {
    public var smoothingDistance: Double
    public var threshold: Double
    public private(set) var gain = 0.0
    public private(set) var loss = 0.0
    private var smoothed: Double?
    private var reference = 0.0

    public init(smoothingDistance: Double = 50, threshold: Double = 5) {
        self.smoothingDistance = smoothingDistance
        self.threshold = threshold
    }

    /// The next altitude, `distance` metres (horizontal) after the previous one.
    public mutating func add(altitude: Double, distance: Double) {
        guard var value = smoothed else {
            smoothed = altitude
            reference = altitude
            return
        }
        value += (altitude - value) * (1 - exp(-max(0, distance) / smoothingDistance))
        smoothed = value
        if value >= reference + threshold {
            gain += value - reference
            reference = value
        } else if value <= reference - threshold {
            loss += reference - value
            reference = value
        }
    }
}
