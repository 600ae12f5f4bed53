import WaymarkCore

/// Device names: the project's short names (1–64 ASCII letters, digits, `.`, `_`, `-`), safe in
/// URLs, MQTT topics (no `/`, `+`, `#`), file names and metrics labels.
public enum DeviceName {
    /// nil when `name` is acceptable; else what is wrong with it.
    public static func problem(with name: String) -> String? {
        ShortName.isValid(name) ? nil : "the device name '\(name)' is not 1–64 letters, digits, '.', '_' or '-'"
    }
}
