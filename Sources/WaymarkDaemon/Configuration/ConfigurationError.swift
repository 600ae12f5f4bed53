import WaymarkConfiguration

/// A configuration file that cannot be used (`WaymarkConfiguration`, where the YAML reading the
/// daemon shares with the fleet and the commands lives), under the name the daemon's callers use.
public typealias ConfigurationError = WaymarkConfiguration.ConfigurationError
