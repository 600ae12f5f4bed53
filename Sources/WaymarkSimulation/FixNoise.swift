import Foundation
import WaymarkCore

/// The error a phone or a receiver adds to where a device truly is, as the region engine's noise
/// scenarios use it (docs/semantics.md §3.3, BENCHMARKS.md "Region events on noisy fixes").
///
/// - **Wandering error**: per axis a first-order Gauss–Markov process with correlation time
///   `correlationTime` (0: independent from fix to fix). Indoors and in towns a phone's error
///   drifts for a minute or so rather than jumping, which is what walks a resting device out of
///   a zone.
/// - **Outliers**: with probability `outlierRate` a fix is thrown `outlierDistance` metres in a
///   random direction (a multipath reflection, a Wi-Fi position from the wrong access point),
///   while it still claims the usual accuracy.
/// - **Accuracy**: when `reportsAccuracy`, each fix carries the honest `sigma` as
///   `horizontalAccuracy` and per-axis σ as `latitudeAccuracy`/`longitudeAccuracy` (what NMEA
///   GST reports); otherwise none.
///
/// `sigma` is the horizontal RMS error in metres (√2 × the per-axis σ), the quantity a
/// receiver's `horizontalAccuracy` states. The same values and seed give the same fixes.
public struct FixNoise: Sendable {
    public var sigma: Double
    public var correlationTime: Double
    public var outlierRate: Double
    public var outlierDistance: ClosedRange<Double>
    public var reportsAccuracy: Bool
    public var seed: UInt64

    public init(
        sigma: Double, correlationTime: Double = 0, outlierRate: Double = 0, outlierDistance: ClosedRange<Double> = 150...300,
        reportsAccuracy: Bool = true, seed: UInt64 = 1
    ) {
        self.sigma = sigma
        self.correlationTime = correlationTime
        self.outlierRate = outlierRate
        self.outlierDistance = outlierDistance
        self.reportsAccuracy = reportsAccuracy
        self.seed = seed
    }

    /// `truth` observed with this error: the same times, every other field of each fix kept,
    /// the position moved and the accuracy set (or cleared).
    public func apply(to truth: [Fix]) -> [Fix] {
        var random = SplitMix64(seed: seed)
        let perAxis = sigma / 2.0.squareRoot()
        var north = perAxis * random.nextGaussian()
        var east = perAxis * random.nextGaussian()
        var previous: Timestamp?
        return truth.map { fix in
            if let time = fix.time, let last = previous {
                let dt = max(0, time.seconds(since: last))
                let a = correlationTime > 0 ? exp(-dt / correlationTime) : 0
                let spread = (1 - a * a).squareRoot() * perAxis
                north = a * north + spread * random.nextGaussian()
                east = a * east + spread * random.nextGaussian()
            }
            previous = fix.time ?? previous
            var offsetNorth = north
            var offsetEast = east
            if outlierRate > 0, random.uniform(0...1) < outlierRate {
                let distance = random.uniform(outlierDistance)
                let direction = random.uniform(0...(2 * .pi))
                offsetNorth = distance * cos(direction)
                offsetEast = distance * sin(direction)
            }
            var noisy = fix
            noisy.coordinate = Self.offset(fix.coordinate, north: offsetNorth, east: offsetEast)
            noisy.horizontalAccuracy = reportsAccuracy ? sigma : nil
            noisy.latitudeAccuracy = reportsAccuracy ? perAxis : nil
            noisy.longitudeAccuracy = reportsAccuracy ? perAxis : nil
            noisy.hdop = nil
            return noisy
        }
    }

    /// `coordinate` moved `north` and `east` metres (local tangent plane: exact enough for
    /// offsets of a few hundred metres).
    static func offset(_ coordinate: Coordinate, north: Double, east: Double) -> Coordinate {
        let metresPerDegree = 111_320.0
        let cosine = max(cos(coordinate.latitude * .pi / 180), 0.01)
        var longitude = coordinate.longitude + east / (metresPerDegree * cosine)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: min(90, max(-90, coordinate.latitude + north / metresPerDegree)), longitude: longitude)
    }
}
