import WaymarkCore

extension TrackStatistics {
    /// The figures as one JSON object (metres, seconds, metres per second; times RFC 3339),
    /// absent figures as `null`.
    public var json: String {
        var json = JSONObjectWriter()
        json.add("points", points)
        json.add("segments", segments)
        json.add("distance", Decimal7.rounded(distance, 2))
        json.add("startTime", startTime?.rfc3339)
        json.add("endTime", endTime?.rfc3339)
        json.add("elapsedTime", elapsedTime.map { Decimal7.rounded($0, 3) })
        json.add("movingTime", movingTime.map { Decimal7.rounded($0, 3) })
        json.add("elevationGain", elevationGain.map { Decimal7.rounded($0, 2) })
        json.add("elevationLoss", elevationLoss.map { Decimal7.rounded($0, 2) })
        json.add("minimumElevation", minimumElevation)
        json.add("maximumElevation", maximumElevation)
        json.add("maximumSpeed", maximumSpeed.map { Decimal7.rounded($0, 3) })
        json.add("averageMovingSpeed", averageMovingSpeed.map { Decimal7.rounded($0, 3) })
        return json.object
    }

    /// `label value` pairs for people (`waymark stats`), in a fixed order.
    public var table: [(label: String, value: String)] {
        var rows: [(String, String)] = [("distance", Self.kilometres(distance))]
        if let elapsedTime { rows.append(("elapsed time", Self.clock(elapsedTime))) }
        if let movingTime { rows.append(("moving time", Self.clock(movingTime))) }
        if let elevationGain, let elevationLoss {
            rows.append(("elevation gain", "+" + Decimal7.format(elevationGain, decimals: 0) + " m"))
            rows.append(("elevation loss", "-" + Decimal7.format(elevationLoss, decimals: 0) + " m"))
        }
        if let minimumElevation, let maximumElevation {
            rows.append(("elevation", Decimal7.format(minimumElevation, decimals: 0) + "–" + Decimal7.format(maximumElevation, decimals: 0) + " m"))
        }
        if let maximumSpeed { rows.append(("max speed", Self.kmh(maximumSpeed))) }
        if let averageMovingSpeed { rows.append(("average speed", Self.kmh(averageMovingSpeed) + " (moving)")) }
        if let startTime { rows.append(("start", startTime.rfc3339)) }
        if let endTime { rows.append(("end", endTime.rfc3339)) }
        rows.append(("points", "\(points) in \(segments) segment\(segments == 1 ? "" : "s")"))
        return rows
    }

    /// One line: `12.47 km · 0:39:40 moving · +123 m / -120 m · max 32.1 km/h · avg 18.9 km/h`.
    public var headline: String {
        var parts = [Self.kilometres(distance)]
        if let movingTime { parts.append(Self.clock(movingTime) + " moving") }
        if let elevationGain, let elevationLoss {
            parts.append("+" + Decimal7.format(elevationGain, decimals: 0) + " m / -" + Decimal7.format(elevationLoss, decimals: 0) + " m")
        }
        if let maximumSpeed { parts.append("max " + Self.kmh(maximumSpeed)) }
        if let averageMovingSpeed { parts.append("avg " + Self.kmh(averageMovingSpeed)) }
        return parts.joined(separator: " · ")
    }

    /// `12.47 km`, or `850 m` under a kilometre.
    static func kilometres(_ metres: Double) -> String {
        metres < 1000 ? Decimal7.format(metres, decimals: 0) + " m" : Decimal7.format(metres / 1000, decimals: 2) + " km"
    }

    /// `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = seconds.roundedInteger(clampedTo: -Int(Int32.max)...Int(Int32.max)) ?? 0
        let minutes = total / 60 % 60
        let secs = total % 60
        return "\(total / 3600):" + (minutes < 10 ? "0" : "") + "\(minutes):" + (secs < 10 ? "0" : "") + "\(secs)"
    }

    static func kmh(_ metresPerSecond: Double) -> String {
        Decimal7.format(metresPerSecond * 3.6, decimals: 1) + " km/h"
    }
}
