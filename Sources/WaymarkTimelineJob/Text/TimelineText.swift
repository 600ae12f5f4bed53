import Foundation
import WaymarkCore
import WaymarkServices

/// A timeline as the lines a person reads (`waymark timeline`), one entry a line, times in the
/// place's local time, clipped to the range:
///
///     Monday 1 June 2026
///     00:00–08:12  Home
///     08:12–08:40  Cycling 6.4 km (28 min) → Office
///     08:40–12:05  Office
///     since 17:02  Home
///
/// A date line starts each local day of the range (in the timeline's zone). A stay's times are in
/// its place's zone, a trip's start in its origin's and its end in its destination's; a time in
/// another zone than the timeline's is followed by that zone's name. The open entry (the device
/// is still there, or still on its way) reads "since HH:MM".
public enum TimelineText {
    public static func lines(_ timeline: Timeline) -> [String] {
        let zone = TimeZone(identifier: timeline.timeZone) ?? TimeZone(identifier: "UTC")!
        var lines: [String] = []
        var day: String?
        for (index, entry) in timeline.entries.enumerated() {
            let isOpen = timeline.lastIsOpen && index == timeline.entries.count - 1
            let (start, end, startZone, endZone, text) = describe(entry)
            let shownStart = max(start, timeline.from)
            let shownEnd = min(end, timeline.to)
            let date = LocalClock(zone).date(shownStart)
            if date != day {
                lines.append(date)
                day = date
            }
            let from = clock(shownStart, in: startZone, timeline: zone)
            let times = isOpen ? "since \(from)" : "\(from)–\(clock(shownEnd, in: endZone, timeline: zone))"
            lines.append(times + "  " + text)
        }
        return lines
    }

    /// A stay's or trip's times, zones and words.
    private static func describe(_ entry: TimelineEntry) -> (Timestamp, Timestamp, String, String, String) {
        switch entry {
        case .stay(let stay, let place):
            return (stay.arrival, stay.departure, place.timeZone, place.timeZone, place.label)
        case .trip(let trip, let from, let to, _):
            let words = "\(modeName(trip.mode)) \(distance(trip.distance)) (\(duration(trip.duration))) → \(to.label)"
            return (trip.start, trip.end, from.timeZone, to.timeZone, words)
        }
    }

    private static func clock(_ time: Timestamp, in identifier: String, timeline zone: TimeZone) -> String {
        guard let own = TimeZone(identifier: identifier), own.identifier != zone.identifier else {
            return LocalClock(zone).time(time)
        }
        return LocalClock(own).time(time) + " " + own.identifier
    }

    /// "Cycling", "Driving", …; "Moving" when the mode could not be told.
    public static func modeName(_ mode: TravelMode) -> String {
        mode == .unknown ? "Moving" : mode.rawValue.prefix(1).uppercased() + mode.rawValue.dropFirst()
    }

    /// "850 m" under a kilometre, "6.4 km" above.
    public static func distance(_ metres: Double) -> String {
        metres.rounded() < 1_000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1_000)
    }

    /// "28 min", "1 h 05 min"; whole minutes, rounded.
    public static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes < 60 ? "\(minutes) min" : String(format: "%d h %02d min", minutes / 60, minutes % 60)
    }
}

/// Wall-clock readings of a time in one zone.
struct LocalClock {
    private var calendar = Calendar(identifier: .gregorian)

    init(_ zone: TimeZone) {
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_GB")
    }

    /// "08:12": hours and minutes, the seconds dropped as a clock does.
    func time(_ time: Timestamp) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date(of: time))
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// "Monday 1 June 2026".
    func date(_ time: Timestamp) -> String {
        let parts = calendar.dateComponents([.weekday, .day, .month, .year], from: date(of: time))
        let weekday = calendar.weekdaySymbols[(parts.weekday ?? 1) - 1]
        let month = calendar.monthSymbols[(parts.month ?? 1) - 1]
        return "\(weekday) \(parts.day ?? 0) \(month) \(parts.year ?? 0)"
    }

    /// "Mon 1 Jun".
    func shortDate(_ time: Timestamp) -> String {
        let parts = calendar.dateComponents([.weekday, .day, .month], from: date(of: time))
        let weekday = calendar.shortWeekdaySymbols[(parts.weekday ?? 1) - 1]
        let month = calendar.shortMonthSymbols[(parts.month ?? 1) - 1]
        return "\(weekday) \(parts.day ?? 0) \(month)"
    }

    /// "2026-06-01": the day's ISO date, as `--day` takes it.
    func isoDate(_ time: Timestamp) -> String {
        let parts = calendar.dateComponents([.day, .month, .year], from: date(of: time))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    private func date(of time: Timestamp) -> Date { Date(timeIntervalSince1970: time.secondsSince1970) }
}
