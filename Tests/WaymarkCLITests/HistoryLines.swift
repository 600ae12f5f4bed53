/// A history line's record as `waymark replay` prints it: history, the API and the live stream
/// add the device as the record's last member (docs/devices.md); the record itself is unchanged.
func replayRecord(_ historyLine: String, device: String = "local") -> String {
    let suffix = ",\"device\":\"\(device)\"}"
    guard historyLine.hasSuffix(suffix) else { return historyLine }
    return historyLine.dropLast(suffix.count) + "}"
}
