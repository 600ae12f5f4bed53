extension Output {
    /// Whether the output is sent `event`: what its filter matches, and for a Home Assistant
    /// output every place change of a device the filter wants, whatever the kinds and regions
    /// (the tracker's state follows the place; docs/outputs.md).
    public func wants(_ event: OutputEvent) -> Bool {
        if filter.matches(event) { return true }
        return format == .homeAssistant && event.kind == .place && (filter.devices.isEmpty || filter.devices.contains(event.device))
    }
}
