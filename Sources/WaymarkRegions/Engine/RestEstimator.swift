import Foundation
import WaymarkCore

/// Combines a device's recent fixes into a `PositionEstimate` while it is at rest, and holds
/// back fixes that are outliers against that estimate (docs/semantics.md §3.3, "At rest").
///
/// The fixes are weighted by age, `exp(−age / window)` (no list of fixes is kept: a device costs
/// a few sums whatever its rate), in a local plane around the first fix. A weighted straight
/// line through them tells a device moving (a significant speed) from one at rest; at rest the
/// estimate is their weighted mean. Its uncertainty counts one independent fix per
/// `correlationTime`: a receiver's error wanders for a minute or so, so sixty fixes of one
/// minute are hardly better than one.
struct RestEstimator: Sendable {
    struct Settings: Sendable, Equatable {
        /// Seconds over which fixes are combined (the age at which a fix weighs 1/e).
        var window = 180.0
        /// Seconds of error memory: fixes closer together than this are not independent.
        var correlationTime = 60.0
        /// A rest needs at least this many fixes over at least `minimumSpan` seconds.
        var minimumFixes = 5.0
        var minimumSpan = 60.0
        /// Metres: fixes scattered more widely about their line than this are not a rest. A
        /// phone indoors scatters some tens of metres.
        var maximumRestSpread = 60.0
        /// Below this speed (m/s) a device is at rest whatever the fit says.
        var restSpeed = 0.2
        /// A speed this many standard errors from zero is movement.
        var movingSignificance = 3.5
        /// A fix farther from the rest's mean than this many combined standard deviations (and
        /// than `outlierFloor` metres) is held back as an outlier…
        var outlierSignificance = 4.0
        var outlierFloor = 50.0
        /// … unless this many in a row agree: then the device has moved (a car pulling out),
        /// the rest ends and they are all let through.
        var outliersToMove = 3
    }

    /// What became of a fix.
    enum Observation: Sendable {
        /// Combined; the estimate when the device is at rest, nil while it moves or the rest
        /// is too young.
        case accepted(PositionEstimate?)
        /// Held back as an outlier: it neither starts, cancels nor confirms a crossing.
        case held
        /// The fixes held back, then this one, agree: the device moved. Let them all through
        /// as a moving device's fixes, in order.
        case released([Fix])
    }

    let settings: Settings
    private var origin: Coordinate?
    private var metresPerDegreeEast = 0.0
    private var latest: Timestamp?
    private var first: Timestamp?
    // Age-weighted sums; t is seconds relative to the latest fix (≤ 0), x east and y north metres.
    private var s0 = 0.0, s00 = 0.0, st = 0.0, stt = 0.0, sx = 0.0, sy = 0.0
    private var sxx = 0.0, syy = 0.0, stx = 0.0, sty = 0.0
    private var accuracyWeight = 0.0, accuracySquares = 0.0
    private var lastEstimate: PositionEstimate?
    private var heldBack: [Fix] = []
    /// The fixes' scatter at rest as departures are judged against it (see `observe`).
    private var restSpread: Double?

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The latest estimate (nil while moving).
    var estimate: PositionEstimate? { lastEstimate }

    /// Takes a timed fix, in time order.
    mutating func observe(_ fix: Fix) -> Observation {
        guard let time = fix.time else { return .accepted(nil) }
        if isJump(fix) {
            if lastEstimate != nil {
                // At rest: an outlier, unless a few in a row agree.
                heldBack.append(fix)
                guard heldBack.count >= settings.outliersToMove else { return .held }
                let moved = heldBack
                reset()
                for earlier in moved { add(earlier, at: earlier.time ?? time) }
                return .released(moved)
            }
            // Not at rest: the device is elsewhere now; what came before says nothing of here.
            reset()
        }
        heldBack.removeAll(keepingCapacity: true)
        add(fix, at: time)
        switch classify() {
        case .young: lastEstimate = nil
        case .moving:
            // What came before is another place: start the next rest from here.
            reset()
            add(fix, at: time)
        case .rest(let estimate):
            lastEstimate = estimate
            // The scatter a departure is judged against grows only slowly: a device pulling
            // away spreads the fixes itself, and must not hide in the spread it makes.
            restSpread = restSpread.map { min(estimate.spread, max($0, 0.99 * $0 + 0.01 * estimate.spread)) } ?? estimate.spread
        }
        return .accepted(lastEstimate)
    }

    /// Whether `fix` lies farther from the fixes combined so far than their error and its own
    /// allow (`outlierSignificance` standard deviations, at least `outlierFloor` metres).
    private func isJump(_ fix: Fix) -> Bool {
        guard s0 > 0, origin != nil else { return false }
        let spread = fix.horizontalAccuracy.map { $0 > 0 ? $0 : 0 } ?? restSpread ?? 0
        // The fix's own error and, at rest, the mean's (a fraction of the rest's scatter).
        let limit = max(settings.outlierFloor, settings.outlierSignificance * 1.2 * spread)
        // In the local plane (metres, exact enough within the 20 km a rest may span): no
        // geodesic per fix.
        let (x, y) = local(fix.coordinate)
        let (dx, dy) = (x - sx / s0, y - sy / s0)
        return dx * dx + dy * dy > limit * limit
    }

    private mutating func reset() {
        origin = nil
        latest = nil
        first = nil
        (s0, s00, st, stt, sx, sy, sxx, syy, stx, sty) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        (accuracyWeight, accuracySquares) = (0, 0)
        lastEstimate = nil
        restSpread = nil
        heldBack.removeAll(keepingCapacity: true)
    }

    private mutating func add(_ fix: Fix, at time: Timestamp) {
        if origin != nil {
            let (x, y) = local(fix.coordinate)
            if x * x + y * y > 20_000 * 20_000 { reset() }
        }
        if origin == nil {
            origin = fix.coordinate
            metresPerDegreeEast = 111_320 * max(cos(fix.coordinate.latitude * .pi / 180), 0.01)
            first = time
        }
        if let latest {
            let dt = max(0, time.seconds(since: latest))
            let d = exp(-dt / settings.window)
            // Age every sum, then move the time origin to this fix (t → t − dt).
            s0 *= d; s00 *= d * d; st *= d; stt *= d; sx *= d; sy *= d; sxx *= d; syy *= d; stx *= d; sty *= d
            accuracyWeight *= d; accuracySquares *= d
            stt += -2 * dt * st + dt * dt * s0
            st -= dt * s0
            stx -= dt * sx
            sty -= dt * sy
        }
        latest = time
        let (x, y) = local(fix.coordinate)
        s0 += 1; s00 += 1; sx += x; sy += y; sxx += x * x; syy += y * y
        if let accuracy = fix.horizontalAccuracy, accuracy > 0 {
            accuracyWeight += 1
            accuracySquares += accuracy * accuracy
        }
    }

    private func local(_ c: Coordinate) -> (Double, Double) {
        guard let origin else { return (0, 0) }
        var east = c.longitude - origin.longitude
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        return (east * metresPerDegreeEast, (c.latitude - origin.latitude) * 111_320)
    }

    private enum Classification {
        /// Too few fixes, or too short a time, to say.
        case young
        case moving
        case rest(PositionEstimate)
    }

    /// Whether the fixes say the device moves or rests, with the weighted mean and its
    /// uncertainty at rest.
    private func classify() -> Classification {
        guard let first, let latest, let origin else { return .young }
        let span = min(latest.seconds(since: first), 2 * settings.window)
        let count = s0 * s0 / max(s00, 1e-12)
        // Without stated accuracy only the scatter tells noise from a path that turns back on
        // itself, and a few minutes of it are needed to believe a rest.
        guard count >= settings.minimumFixes, span >= settings.minimumSpan else { return .young }
        let mt = st / s0, mx = sx / s0, my = sy / s0
        let varT = stt / s0 - mt * mt
        guard varT > 1e-9 else { return .young }
        let vx = (stx / s0 - mt * mx) / varT
        let vy = (sty / s0 - mt * my) / varT
        let scatter = max(0, sxx / s0 - mx * mx) + max(0, syy / s0 - my * my)
        let residual = max(0, scatter - (vx * vx + vy * vy) * varT)
        // Independent fixes: error correlated over τ makes the mean of a span T worth about
        // 1 + T / 2τ fixes. The scatter about the fitted line underestimates the error by about
        // 1 − 2 / n over a short span (the line and the wander absorb part of it): corrected.
        let independent = max(1, min(count, 1 + span / (2 * settings.correlationTime)))
        let stated = accuracyWeight > 0 ? accuracySquares / accuracyWeight : 0
        let corrected = residual / max(0.25, 1 - 2 / independent)
        // Fixes scattered about their line wider than any receiver's error (and than twice
        // what they state) are a path, not a rest: a winding ride, a walk into a field and out.
        if corrected > max(settings.maximumRestSpread * settings.maximumRestSpread, 4 * stated) { return .moving }
        let variance = max(stated, corrected, 1)
        // Slope per axis: σ² / (n·var t), counting only the independent fixes; σ is the rest's
        // own scatter, not what a departure adds to it.
        let restVariance = restSpread.map { min(variance, max(stated, 4 * $0 * $0)) } ?? variance
        let speedError = (restVariance / 2 / (independent * varT)).squareRoot()
        let speed = (vx * vx + vy * vy).squareRoot()
        if speed > settings.restSpeed && speed > settings.movingSignificance * speedError { return .moving }
        let coordinate = Coordinate(latitude: origin.latitude + my / 111_320, longitude: wrapped(origin.longitude + mx / metresPerDegreeEast))
        return .rest(PositionEstimate(
            coordinate: coordinate, uncertainty: (variance / independent).squareRoot(), spread: variance.squareRoot(),
            stated: accuracyWeight > 0, fixes: Int(count.rounded()), span: span))
    }

    private func wrapped(_ longitude: Double) -> Double {
        longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude
    }
}

