import WaymarkCore

extension TransitionDisagreement {
    /// `{"kind":"disagreement","side":"phone"|"server","reason":…,"region":…,"transition":…,
    /// "time":…,"id":…,"counterpart":{"time":…,"id":…}}`: `id` is the stored event's (for
    /// `waymark explain ID` on a server event), `counterpart` the other side's same transition
    /// outside the tolerance (`serverLater`, `serverEarlier`).
    public var record: String {
        var record = JSONObjectWriter()
        record.add("kind", "disagreement")
        record.add("side", side.rawValue)
        record.add("reason", reason.rawValue)
        record.add("region", transition.region)
        record.add("transition", transition.transition.rawValue)
        record.add("time", transition.time.rfc3339)
        if let id = transition.id { record.add("id", Int(id)) }
        if let counterpart {
            var other = JSONObjectWriter()
            other.add("time", counterpart.time.rfc3339)
            if let id = counterpart.id { other.add("id", Int(id)) }
            let seconds = Double(counterpart.time.nanosecondsSince1970 - transition.time.nanosecondsSince1970) / 1e9
            other.add("offsetSeconds", seconds)
            record.addRaw("counterpart", other.object)
        }
        return record.object
    }
}

extension TransitionComparison {
    /// `{"kind":"summary","device":…,"from":…,"to":…,"toleranceSeconds":300,"agreed":N,
    /// "disagreements":N,"byReason":{"serverHeld":N,…}}`: the last line of `waymark explain
    /// --device`.
    public func summary(device: String, from: Timestamp, to: Timestamp, tolerance: Double) -> String {
        var record = JSONObjectWriter()
        record.add("kind", "summary")
        add(to: &record, device: device, from: from, to: to, tolerance: tolerance, disagreements: "\(disagreements.count)")
        return record.object
    }

    /// The answer of `GET /v1/devices/{name}/disagreements`: the summary's members without
    /// `kind`, and `disagreements` the list of records instead of their count.
    public func answer(device: String, from: Timestamp, to: Timestamp, tolerance: Double) -> String {
        var record = JSONObjectWriter()
        let list = "[" + disagreements.map(\.record).joined(separator: ",") + "]"
        add(to: &record, device: device, from: from, to: to, tolerance: tolerance, disagreements: list)
        return record.object
    }

    private func add(
        to record: inout JSONObjectWriter, device: String, from: Timestamp, to: Timestamp, tolerance: Double,
        disagreements value: String
    ) {
        record.add("device", device)
        record.add("from", from.rfc3339)
        record.add("to", to.rfc3339)
        record.add("toleranceSeconds", tolerance)
        record.add("agreed", agreed.count)
        record.addRaw("disagreements", value)
        var byReason = JSONObjectWriter()
        for reason in TransitionDisagreement.Reason.allCases {
            byReason.add(reason.rawValue, disagreements.count { $0.reason == reason })
        }
        record.addRaw("byReason", byReason.object)
    }
}
