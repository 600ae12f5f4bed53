import WaymarkCore

/// Turns NMEA sentences, in the order a receiver sent them, into fixes: one per epoch with a
/// valid position (docs/replay.md). Pure; ``NMEAFixSource`` feeds it a file's lines.
///
/// The date comes from RMC or ZDA; until one arrives, fixes are untimed. When the time of day
/// goes back by more than 12 hours without a new date, midnight has passed and the day moves on.
struct NMEAFixAssembler {
    private var epoch: NMEAEpoch?
    /// Days since 1970 of the current epoch, once a sentence gave a date.
    private var day: Int?

    /// Sentence types that carry a time of day in their first field (GLL has it in its fifth).
    private static let timed: Set<Substring> = ["RMC", "GGA", "GNS", "GST", "ZDA"]

    /// Takes one sentence; returns the fix of the epoch it ended, if any.
    mutating func take(_ sentence: NMEASentence) throws(NMEASentence.Problem) -> Fix? {
        let fields = NMEAFields(sentence)
        let type = sentence.type
        var finished: Fix?
        let timeIndex = type == "GLL" ? 4 : 0
        if Self.timed.contains(type) || type == "GLL", let time = try fields.timeOfDay(timeIndex) {
            if epoch?.timeOfDay != time {
                finished = epoch?.fix(day: day)
                if let previous = epoch?.timeOfDay, time < previous - 12 * 3_600_000_000_000, day != nil {
                    day! += 1
                }
                epoch = NMEAEpoch(timeOfDay: time)
            }
        }
        guard epoch != nil else { return finished }
        switch type {
        case "RMC": try rmc(fields)
        case "GGA": try gga(fields)
        case "GLL": try gll(fields)
        case "GNS": try gns(fields)
        case "GSA": try gsa(fields)
        case "VTG": try vtg(fields)
        case "GST": try gst(fields)
        case "ZDA": if let date = try fields.dayMonthYear(1) { day = date }
        default: break
        }
        return finished
    }

    /// The last epoch's fix, at the end of the log.
    mutating func finish() -> Fix? {
        defer { epoch = nil }
        return epoch?.fix(day: day)
    }

    private static let metresPerSecondPerKnot = 1852.0 / 3600

    /// RMC: time, status, latitude, N/S, longitude, E/W, speed (knots), course, date, …, mode.
    private mutating func rmc(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        let status = try fields.letter(1, "status", "AV")
        if let date = try fields.date(8) { day = date }
        // NMEA 2.3 adds a mode indicator; N is "not valid" whatever the status says. The fields
        // of a sentence marked invalid are placeholders (MTK receivers send 8960.0000 N), not
        // checked.
        guard status == "A", fields.text(11)?.first != "N", let coordinate = try position(fields, at: 2) else { return }
        epoch!.coordinate = coordinate
        if let speed = try fields.number(6, "speed") { epoch!.speed = speed * Self.metresPerSecondPerKnot }
        if let course = try fields.number(7, "course") { epoch!.course = course }
    }

    /// GGA qualities that are a measured position: GPS, DGPS, PPS, RTK fixed and float, and
    /// dead reckoning; not 0 (none), 7 (entered by hand) or 8 (a simulator, as Garmin's demo
    /// mode sends).
    private static let measured: Set<Int> = [1, 2, 3, 4, 5, 6]

    /// GGA: time, latitude, N/S, longitude, E/W, quality, satellites, HDOP, altitude, M, …
    private mutating func gga(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        let quality = try fields.integer(5, "quality") ?? 0
        guard Self.measured.contains(quality), let coordinate = try position(fields, at: 1) else { return }
        try solution(coordinate, fields)
    }

    /// GLL: latitude, N/S, longitude, E/W, time, status, mode.
    private mutating func gll(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        let status = try fields.letter(5, "status", "AV")
        guard status == "A", fields.text(6)?.first != "N", let coordinate = try position(fields, at: 0) else { return }
        epoch!.coordinate = coordinate
    }

    /// GNS: time, latitude, N/S, longitude, E/W, mode per constellation, satellites, HDOP,
    /// altitude, … A position when one constellation's mode is a measured one (autonomous,
    /// differential, precise, RTK fixed or float, estimated).
    private mutating func gns(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        let modes = fields.text(5) ?? ""
        guard modes.contains(where: { "ADPRFE".contains($0) }), let coordinate = try position(fields, at: 1) else { return }
        try solution(coordinate, fields)
    }

    /// GGA's and GNS's common tail: satellites, HDOP and altitude from field 6.
    private mutating func solution(_ coordinate: Coordinate, _ fields: NMEAFields) throws(NMEASentence.Problem) {
        epoch!.coordinate = coordinate
        if let satellites = try fields.integer(6, "satellites") { epoch!.satellites = satellites }
        if let hdop = try fields.number(7, "HDOP") { epoch!.hdop = hdop }
        if let altitude = try fields.number(8, "altitude") { epoch!.altitude = altitude }
    }

    /// GSA: selection, fix type, 12 satellites, PDOP, HDOP, VDOP (NMEA 4.1: a system id after).
    private mutating func gsa(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        if let mode = try fields.integer(1, "fix type") {
            guard (1...3).contains(mode) else { throw fields.problem(1, "fix type \(mode) is not 1, 2 or 3") }
            epoch!.gsaMode = mode
        }
        if let pdop = try fields.number(14, "PDOP") { epoch!.pdop = pdop }
        if let hdop = try fields.number(15, "HDOP") { epoch!.hdop = hdop }
        if let vdop = try fields.number(16, "VDOP") { epoch!.vdop = vdop }
    }

    /// VTG: course true, T, course magnetic, M, speed knots, N, speed km/h, K, mode. Like the
    /// position, the last sentence's speed and course win.
    private mutating func vtg(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        let course = try fields.number(0, "course")
        let knots = try fields.number(4, "speed")
        let kilometresPerHour = try fields.number(6, "speed")
        guard fields.text(8)?.first != "N" else { return }
        if let course { epoch!.course = course }
        if let knots {
            epoch!.speed = knots * Self.metresPerSecondPerKnot
        } else if let kilometresPerHour {
            epoch!.speed = kilometresPerHour / 3.6
        }
    }

    /// GST: time, RMS, ellipse semi-major, semi-minor, orientation, latitude σ, longitude σ,
    /// altitude σ (metres): the receiver's own error estimate.
    private mutating func gst(_ fields: NMEAFields) throws(NMEASentence.Problem) {
        if let value = try fields.number(5, "latitude error") { epoch!.latitudeError = value }
        if let value = try fields.number(6, "longitude error") { epoch!.longitudeError = value }
        if let value = try fields.number(7, "altitude error") { epoch!.altitudeError = value }
    }

    private func position(_ fields: NMEAFields, at index: Int) throws(NMEASentence.Problem) -> Coordinate? {
        let latitude = try fields.angle(index, latitude: true)
        let longitude = try fields.angle(index + 2, latitude: false)
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
