import Foundation
import WaymarkCore
import WaymarkServices

extension StayComparison {
    /// The comparison as a person reads it (`waymark timeline --compare`): the counts and
    /// figures, then each match and the unmatched stays of both sides, times in `timeZone`
    /// ("Mon 1 Jun 08:40"). `labels` names Waymark's stays by their arrival (the timeline's
    /// place labels).
    public func lines(timeZone: String, labels: [Timestamp: String] = [:]) -> [String] {
        let clock = LocalClock(TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!)
        func span(_ arrival: Timestamp, _ departure: Timestamp) -> String {
            let day = clock.shortDate(arrival)
            let until = clock.shortDate(departure) == day ? clock.time(departure) : "\(clock.shortDate(departure)) \(clock.time(departure))"
            return "\(day) \(clock.time(arrival))–\(until)"
        }
        func figure(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
        var lines = [
            "Waymark's stays: \(stayCount); reported visits: \(reportedCount); matched: \(matches.count) (times in \(timeZone))",
            "precision \(figure(precision))  recall \(figure(recall))  F1 \(figure(f1))",
            "median arrival error \(Self.seconds(medianArrivalError)), median departure error \(Self.seconds(medianDepartureError))",
        ]
        if !matches.isEmpty { lines.append("matched:") }
        for match in matches {
            let departure = match.departureDifference.map { "departure \(Self.signed($0))" } ?? "open"
            let distance = match.distance.map { ", \(Int($0.rounded())) m apart" } ?? ""
            lines.append(
                "  \(span(match.stay.arrival, match.stay.departure))  \(labels[match.stay.arrival] ?? "stay") = reported "
                    + "\(span(match.reported.arrival, match.reported.departure))  \(match.reported.name ?? "visit") "
                    + "(arrival \(Self.signed(match.arrivalDifference)), \(departure)\(distance))")
        }
        if !unmatchedStays.isEmpty { lines.append("Waymark's stays not reported:") }
        for stay in unmatchedStays {
            lines.append("  \(span(stay.arrival, stay.departure))  \(labels[stay.arrival] ?? Self.position(stay.centre))")
        }
        if !unmatchedReported.isEmpty { lines.append("reported visits Waymark did not find:") }
        for visit in unmatchedReported {
            lines.append("  \(span(visit.arrival, visit.departure))  \(visit.name ?? visit.centre.map(Self.position) ?? "visit")")
        }
        return lines
    }

    /// The comparison as one JSON object (`waymark timeline --compare --json`, docs/timeline/cli.md).
    public func json(device: String, from: Timestamp, to: Timestamp, labels: [Timestamp: String] = [:]) -> String {
        var object = JSONObjectWriter()
        object.add("device", device)
        object.add("from", from.rfc3339)
        object.add("to", to.rfc3339)
        object.add("maximumDistance", Self.defaultMaximumDistance)
        object.add("stays", stayCount)
        object.add("reported", reportedCount)
        object.add("matched", matches.count)
        object.add("precision", precision)
        object.add("recall", recall)
        object.add("f1", f1)
        object.add("medianArrivalError", medianArrivalError)
        object.add("medianDepartureError", medianDepartureError)
        object.addRaw("matches", "[" + matches.map { Self.json($0, label: labels[$0.stay.arrival]) }.joined(separator: ",") + "]")
        object.addRaw(
            "unmatchedStays",
            "[" + unmatchedStays.map { Self.json($0.arrival, $0.departure, $0.centre, "label", labels[$0.arrival]) }.joined(separator: ",") + "]")
        object.addRaw(
            "unmatchedReported",
            "[" + unmatchedReported.map { Self.json($0.arrival, $0.departure, $0.centre, "name", $0.name) }.joined(separator: ",") + "]")
        return object.object
    }

    private static func json(_ match: Match, label: String?) -> String {
        var object = JSONObjectWriter()
        object.add("arrival", match.stay.arrival.rfc3339)
        object.add("departure", match.stay.departure.rfc3339)
        object.add("label", label)
        object.add("reportedArrival", match.reported.arrival.rfc3339)
        object.add("reportedDeparture", match.reported.departure.rfc3339)
        object.add("name", match.reported.name)
        object.add("arrivalDifference", match.arrivalDifference)
        object.add("departureDifference", match.departureDifference)
        object.add("overlap", match.overlap)
        object.add("distance", match.distance.map { ($0 * 10).rounded() / 10 })
        return object.object
    }

    private static func json(_ arrival: Timestamp, _ departure: Timestamp, _ centre: Coordinate?, _ nameKey: String, _ name: String?) -> String {
        var object = JSONObjectWriter()
        object.add("arrival", arrival.rfc3339)
        object.add("departure", departure.rfc3339)
        object.add("latitude", centre?.latitude)
        object.add("longitude", centre?.longitude)
        object.add(nameKey, name)
        return object.object
    }

    /// "2 min 05 s", "40 s"; "–" for none.
    static func seconds(_ value: Double?) -> String {
        guard let value else { return "–" }
        let whole = Int(value.rounded())
        return whole < 60 ? "\(whole) s" : String(format: "%d min %02d s", whole / 60, whole % 60)
    }

    /// "+2 min 05 s", "−40 s", "0 s".
    static func signed(_ value: Double) -> String {
        let rounded = value.rounded()
        return (rounded > 0 ? "+" : rounded < 0 ? "−" : "") + seconds(abs(rounded))
    }

    private static func position(_ coordinate: Coordinate) -> String {
        String(format: "%.5f, %.5f", coordinate.latitude, coordinate.longitude)
    }
}
