/// The ticks of a chart axis: round values `step` apart from `bottom` to `top`, at most
/// `maximumCount` of them, computed as `bottom + i × step` so no loop depends on adding a step
/// that the magnitude swallows (issue 48: at 10¹⁷ one double's spacing is 16, `tick += 5` never
/// moves, and the export pinned a core inside the drawing loop).
///
/// An axis that cannot be drawn meaningfully — a range that is not finite, or one whose span
/// vanishes at its magnitude (every elevation 10¹⁷: `bottom == top`) — is `flat`: one tick at
/// the value, and every point at mid-height.
struct AxisTicks: Equatable {
    /// No axis ever needs more: the profile asks for about 4, the distance axis about 8.
    static let maximumCount = 50

    var bottom: Double
    var top: Double
    var values: [Double]

    /// Whether the axis collapsed to one value (see above).
    var isFlat: Bool { !(top > bottom) }

    /// Ticks spanning `low…high`, widened to at least `minimumSpan`, about `count` of them.
    init(low: Double, high: Double, minimumSpan: Double, count: Int) {
        let centre = low / 2 + high / 2  // halves first: (low + high) overflows near the largest double
        let span = max(high - low, minimumSpan)
        let step = NiceNumber.step(span: span, count: count)
        let bottom = ((centre - span / 2) / step).rounded(.down) * step
        let top = ((centre + span / 2) / step).rounded(.up) * step
        let intervals = ((top - bottom) / step).rounded()
        guard centre.isFinite, span.isFinite, step > 0, bottom.isFinite, top.isFinite, top > bottom,
            intervals >= 1, intervals < Double(Self.maximumCount), bottom + step > bottom
        else {
            let value = centre.isFinite ? centre : 0
            self.init(bottom: value, top: value, values: [value])
            return
        }
        self.init(bottom: bottom, top: top, values: (0...Int(intervals)).map { bottom + Double($0) * step })
    }

    /// Ticks from 0 up to `total` every `step` (the distance axis), at most `maximumCount`.
    init(from zero: Double, to total: Double, step: Double) {
        guard total.isFinite, step.isFinite, step > 0, total >= zero else {
            self.init(bottom: zero, top: zero, values: [zero])
            return
        }
        let intervals = min(Double(Self.maximumCount - 1), ((total - zero) / step + 1e-9).rounded(.down))
        self.init(bottom: zero, top: total, values: (0...Int(intervals)).map { zero + Double($0) * step })
    }

    private init(bottom: Double, top: Double, values: [Double]) {
        self.bottom = bottom
        self.top = top
        self.values = values
    }

    /// Where `value` sits between bottom (0) and top (1); 0.5 on a flat axis, and clamped, so a
    /// drawing never receives a coordinate off the plot (or not a number).
    func fraction(_ value: Double) -> Double {
        guard !isFlat else { return 0.5 }
        let fraction = (value - bottom) / (top - bottom)
        return fraction.isNaN ? 0.5 : min(1, max(0, fraction))
    }
}
