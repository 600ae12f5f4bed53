import WaymarkCore

/// Typed reads of a sentence's fields, each `nil` when the field is empty (NMEA's way of
/// saying "not known") and a ``NMEASentence/Problem`` at the field's column when it is
/// malformed. `index` counts the fields after the address from 0; a missing field is empty.
struct NMEAFields {
    let sentence: NMEASentence

    init(_ sentence: NMEASentence) { self.sentence = sentence }

    func text(_ index: Int) -> Substring? {
        guard index < sentence.fields.count, !sentence.fields[index].isEmpty else { return nil }
        return sentence.fields[index]
    }

    func problem(_ index: Int, _ message: String) -> NMEASentence.Problem {
        let column = index < sentence.columns.count ? sentence.columns[index] : (sentence.columns.last ?? 1)
        return NMEASentence.Problem(code: .badField, column: column, message: "\(sentence.type) \(message)")
    }

    /// A decimal number (`5.6`, `-4`, `.5`).
    func number(_ index: Int, _ name: String) throws(NMEASentence.Problem) -> Double? {
        guard let text = text(index) else { return nil }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
            let value = Double(text), value.isFinite
        else { throw problem(index, "\(name) '\(text)' is not a number") }
        return value
    }

    /// A whole number.
    func integer(_ index: Int, _ name: String) throws(NMEASentence.Problem) -> Int? {
        guard let text = text(index) else { return nil }
        guard let value = Int(text) else { throw problem(index, "\(name) '\(text)' is not a whole number") }
        return value
    }

    /// One letter of `allowed`.
    func letter(_ index: Int, _ name: String, _ allowed: String) throws(NMEASentence.Problem) -> Character? {
        guard let text = text(index) else { return nil }
        guard text.count == 1, let letter = text.first, allowed.contains(letter) else {
            throw problem(index, "\(name) '\(text)' is not one of \(allowed.map(String.init).joined(separator: ", "))")
        }
        return letter
    }

    /// A latitude (`ddmm.mmmm` at `index`, `N`/`S` after it) or longitude (`dddmm.mmmm`,
    /// `E`/`W`) in degrees; nil when both fields are empty.
    func angle(_ index: Int, latitude: Bool) throws(NMEASentence.Problem) -> Double? {
        let name = latitude ? "latitude" : "longitude"
        let hemispheres = latitude ? "NS" : "EW"
        guard let text = text(index) else {
            if text(index + 1) != nil { throw problem(index, "\(name) is empty but its hemisphere is not") }
            return nil
        }
        guard let hemisphere = try letter(index + 1, "\(name) hemisphere", hemispheres) else {
            throw problem(index + 1, "\(name) \(text) has no hemisphere (\(hemispheres.map(String.init).joined(separator: " or ")))")
        }
        let degreeDigits = latitude ? 2 : 3
        let point = text.firstIndex(of: ".") ?? text.endIndex
        let wholeCount = text.distance(from: text.startIndex, to: point)
        guard wholeCount >= 3, wholeCount <= degreeDigits + 2,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            text.filter({ $0 == "." }).count <= 1
        else { throw problem(index, "\(name) '\(text)' is not \(latitude ? "ddmm.mmmm" : "dddmm.mmmm")") }
        let minutesStart = text.index(point, offsetBy: -2)
        guard let degrees = Double(text[text.startIndex..<minutesStart]), let minutes = Double(text[minutesStart...]),
            minutes < 60
        else { throw problem(index, "\(name) '\(text)' has minutes of 60 or more") }
        let value = degrees + minutes / 60
        guard value <= (latitude ? 90 : 180) else {
            throw problem(index, "\(name) '\(text)' is beyond \(latitude ? 90 : 180)°")
        }
        return hemisphere == "S" || hemisphere == "W" ? -value : value
    }

    /// A UTC time of day `hhmmss` or `hhmmss.sss`, in nanoseconds since midnight.
    func timeOfDay(_ index: Int) throws(NMEASentence.Problem) -> Int64? {
        guard let text = text(index) else { return nil }
        let digits = Array(text.utf8)
        func value(_ range: Range<Int>) -> Int64? {
            var result: Int64 = 0
            for digit in digits[range] {
                guard digit >= 0x30 && digit <= 0x39 else { return nil }
                result = result * 10 + Int64(digit - 0x30)
            }
            return result
        }
        let fractionDigits = digits.count > 7 ? digits.count - 7 : 0
        guard digits.count == 6 || (digits.count > 7 && digits[6] == UInt8(ascii: ".") && fractionDigits <= 9),
            let hours = value(0..<2), let minutes = value(2..<4), let seconds = value(4..<6),
            let fraction = digits.count > 7 ? value(7..<digits.count) : 0
        else { throw problem(index, "time '\(text)' is not hhmmss.ss") }
        guard hours < 24, minutes < 60, seconds < 61 else { throw problem(index, "time '\(text)' is not a time of day") }
        var nanoseconds = fraction
        for _ in fractionDigits..<9 { nanoseconds *= 10 }
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + nanoseconds
    }

    /// A `ddmmyy` date (RMC) as days since 1970-01-01. Two-digit years 80–99 are 1980–1999,
    /// the rest 2000–2079: GPS began in 1980.
    func date(_ index: Int) throws(NMEASentence.Problem) -> Int? {
        guard let text = text(index) else { return nil }
        guard text.count == 6, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let day = Int(text.prefix(2)), let month = Int(text.dropFirst(2).prefix(2)), let year = Int(text.suffix(2))
        else { throw problem(index, "date '\(text)' is not ddmmyy") }
        return try days(index, year: year < 80 ? 2000 + year : 1900 + year, month: month, day: day, text: String(text))
    }

    /// Day, month and four-digit year in three fields from `index` (ZDA) as days since 1970.
    func dayMonthYear(_ index: Int) throws(NMEASentence.Problem) -> Int? {
        guard let day = try integer(index, "day"), let month = try integer(index + 1, "month"),
            let year = try integer(index + 2, "year")
        else { return nil }
        guard year >= 1980, year < 2200 else { throw problem(index + 2, "year \(year) is outside 1980…2199") }
        return try days(index, year: year, month: month, day: day, text: "\(day) \(month) \(year)")
    }

    private func days(_ index: Int, year: Int, month: Int, day: Int, text: String) throws(NMEASentence.Problem) -> Int {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
            throw problem(index, "date '\(text)' is not a calendar date")
        }
        return CivilDate.days(year: year, month: month, day: day)
    }
}
