import WaymarkRegions

extension DecodingContext {
    /// The monitoring options among a feature's properties (`RegionOptions.Key`): booleans for
    /// the flags, finite seconds or metres for the rest (`loiteringDelay` ≥ 0, `hysteresis` ≥ 0,
    /// `confirmationTime` ≥ 0, `exitTimeout` ≥ 0). A null or absent property takes the default; anything else is an
    /// `invalid-option` error at the property's line and column.
    func regionOptions(_ properties: JSONNode?) throws(GeoJSONError) -> RegionOptions {
        var options = RegionOptions()
        guard let properties else { return options }
        typealias Key = RegionOptions.Key
        if let value = try flag(properties, Key.notifyOnEntry) { options.notifyOnEntry = value }
        if let value = try flag(properties, Key.notifyOnExit) { options.notifyOnExit = value }
        if let value = try flag(properties, Key.initialTrigger) { options.initialTrigger = value }
        options.loiteringDelay = try quantity(properties, Key.loiteringDelay, unit: "seconds")
        options.hysteresis = try quantity(properties, Key.hysteresis, unit: "metres")
        options.confirmationTime = try quantity(properties, Key.confirmationTime, unit: "seconds")
        options.exitTimeout = try quantity(properties, Key.exitTimeout, unit: "seconds")
        return options
    }

    private func flag(_ properties: JSONNode, _ key: String) throws(GeoJSONError) -> Bool? {
        guard let node = properties.member(key), !node.isNull else { return nil }
        guard case .bool(let value) = node.value else {
            throw optionError("properties.\(key) is a \(node.value.typeName); expected true or false", node, key)
        }
        return value
    }

    private func quantity(_ properties: JSONNode, _ key: String, unit: String) throws(GeoJSONError) -> Double? {
        guard let node = properties.member(key), !node.isNull else { return nil }
        guard case .number(let value) = node.value, value.isFinite, value >= 0 else {
            throw optionError("properties.\(key) must be a finite number of \(unit) ≥ 0", node, key)
        }
        return value
    }

    /// Called with `path` at the feature.
    private func optionError(_ message: String, _ node: JSONNode, _ key: String) -> GeoJSONError {
        fail(.invalidOption, message, node, extra: .key("properties"), .key(key))
    }
}
