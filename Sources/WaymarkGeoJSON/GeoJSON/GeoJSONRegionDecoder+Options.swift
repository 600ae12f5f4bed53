import WaymarkRegions

extension DecodingContext {
    /// The monitoring options among a feature's properties (`RegionOptions.Key`): booleans for
    /// the flags, finite seconds or metres ≥ 0 for the durations and `margin` (or its older name
    /// `hysteresis`; both with different values is an error), finite metres > 0 for
    /// `maxAccuracy`, an integer within ±`priorityLimit` for `priority`. A null or absent
    /// property takes the default; anything else is an `invalid-option` error at the property's
    /// line and column. Other properties, however similar their names, are the user's data.
    func regionOptions(_ properties: JSONNode?) throws(GeoJSONError) -> RegionOptions {
        var options = RegionOptions()
        guard let properties else { return options }
        typealias Key = RegionOptions.Key
        if let value = try flag(properties, Key.notifyOnEntry) { options.notifyOnEntry = value }
        if let value = try flag(properties, Key.notifyOnExit) { options.notifyOnExit = value }
        if let value = try flag(properties, Key.initialTrigger) { options.initialTrigger = value }
        options.loiteringDelay = try quantity(properties, Key.loiteringDelay, unit: "seconds")
        options.hysteresis = try margin(properties)
        options.confirmationTime = try quantity(properties, Key.confirmationTime, unit: "seconds")
        options.exitTimeout = try quantity(properties, Key.exitTimeout, unit: "seconds")
        options.enterDelay = try quantity(properties, Key.enterDelay, unit: "seconds")
        options.exitDelay = try quantity(properties, Key.exitDelay, unit: "seconds")
        options.maxAccuracy = try quantity(properties, Key.maxAccuracy, unit: "metres", positive: true)
        options.priority = try priority(properties)
        return options
    }

    /// `margin`, else `hysteresis`; both given must agree.
    private func margin(_ properties: JSONNode) throws(GeoJSONError) -> Double? {
        typealias Key = RegionOptions.Key
        let margin = try quantity(properties, Key.margin, unit: "metres")
        let hysteresis = try quantity(properties, Key.hysteresis, unit: "metres")
        if let margin, let hysteresis, margin != hysteresis, let node = properties.member(Key.margin) {
            throw optionError(
                "properties.margin (\(formatNumber(margin))) and properties.hysteresis (\(formatNumber(hysteresis))) differ; "
                    + "hysteresis is margin's older name: give one", node, Key.margin)
        }
        return margin ?? hysteresis
    }

    private func priority(_ properties: JSONNode) throws(GeoJSONError) -> Int? {
        let key = RegionOptions.Key.priority
        guard let node = properties.member(key), !node.isNull else { return nil }
        let limit = RegionLimits.maximumPriority
        guard case .number(let value) = node.value, value.rounded() == value, abs(value) <= Double(limit) else {
            throw optionError("properties.\(key) must be an integer within -\(limit)…\(limit)", node, key)
        }
        return Int(value)
    }

    private func flag(_ properties: JSONNode, _ key: String) throws(GeoJSONError) -> Bool? {
        guard let node = properties.member(key), !node.isNull else { return nil }
        guard case .bool(let value) = node.value else {
            throw optionError("properties.\(key) is a \(node.value.typeName); expected true or false", node, key)
        }
        return value
    }

    private func quantity(_ properties: JSONNode, _ key: String, unit: String, positive: Bool = false) throws(GeoJSONError) -> Double? {
        guard let node = properties.member(key), !node.isNull else { return nil }
        guard case .number(let value) = node.value, value.isFinite, positive ? value > 0 : value >= 0 else {
            throw optionError("properties.\(key) must be a finite number of \(unit) \(positive ? ">" : "≥") 0", node, key)
        }
        return value
    }

    /// Called with `path` at the feature.
    private func optionError(_ message: String, _ node: JSONNode, _ key: String) -> GeoJSONError {
        fail(.invalidOption, message, node, extra: .key("properties"), .key(key))
    }
}
