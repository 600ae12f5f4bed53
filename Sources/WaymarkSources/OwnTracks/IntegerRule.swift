/// What a whole number must be, with the phrase errors use (see `NumberRule`).
struct IntegerRule {
    var expected: String
    var range: ClosedRange<Int>

    static let percent = IntegerRule(expected: "a whole number between 0 and 100 (percent)", range: 0...100)
    static let batteryStatus = IntegerRule(
        expected: "0, 1, 2 or 3 (unknown, unplugged, charging, full)", range: 0...3)
    static let proximity = IntegerRule(expected: "0, 1, 2 or 3 (unknown, immediate, near, far)", range: 0...3)
    static let beaconNumber = IntegerRule(expected: "a whole number between 0 and 65535", range: 0...65535)
    static let whole = IntegerRule(
        expected: "a whole number between \(Int32.min) and \(Int32.max)", range: Int(Int32.min)...Int(Int32.max))
}
