import WaymarkConfiguration
import WaymarkPipeline
import Foundation
import Logging
import Yams

extension DaemonConfiguration {
    /// Reads a YAML configuration file over `defaults`. Every key is checked: an unknown key (a
    /// typo), a value of the wrong type or out of range, or a YAML syntax error is a
    /// `ConfigurationError` naming the file, line, column and key.
    public static func load(yamlFile path: String, over defaults: DaemonConfiguration) throws(ConfigurationError)
        -> DaemonConfiguration
    {
        try parse(yaml: try ConfigurationReader.text(ofFile: path), file: path, over: defaults)
    }

    /// Parses configuration text; `file` names it in errors.
    public static func parse(yaml text: String, file: String, over defaults: DaemonConfiguration)
        throws(ConfigurationError) -> DaemonConfiguration
    {
        var configuration = defaults
        guard let root = try ConfigurationReader.compose(yaml: text, file: file) else { return configuration }  // an empty file changes nothing
        let reader = ConfigurationReader(file: file)
        let sections = try reader.mapping(root, key: nil)
        for (name, section) in sections {
            switch name.string {
            case "store":
                for (key, value) in try reader.mapping(section, key: "store") {
                    switch key.string {
                    case "database": configuration.database = try reader.string(value, key: "store.database")
                    case "retention_days":
                        configuration.retentionDays = try reader.number(value, key: "store.retention_days", in: 0.001...)
                    case "record_fixes": configuration.recordFixes = try reader.bool(value, key: "store.record_fixes")
                    default: throw reader.unknown(key, in: "store", known: ["database", "retention_days", "record_fixes"])
                    }
                }
            case "gpsd":
                for (key, value) in try reader.mapping(section, key: "gpsd") {
                    switch key.string {
                    case "host": configuration.gpsdHost = try reader.string(value, key: "gpsd.host")
                    case "port": configuration.gpsdPort = try reader.integer(value, key: "gpsd.port", in: 1...65535)
                    default: throw reader.unknown(key, in: "gpsd", known: ["host", "port"])
                    }
                }
            case "api":
                for (key, value) in try reader.mapping(section, key: "api") {
                    switch key.string {
                    case "socket": configuration.socketPath = try reader.string(value, key: "api.socket")
                    case "tcp_port": configuration.tcpPort = try reader.integer(value, key: "api.tcp_port", in: 1...65535)
                    case "token_file": configuration.tokenFile = try reader.string(value, key: "api.token_file")
                    case "group": configuration.apiGroup = try reader.group(value, key: "api.group")
                    default: throw reader.unknown(key, in: "api", known: ["socket", "tcp_port", "token_file", "group"])
                    }
                }
            case "regions":
                for (key, value) in try reader.mapping(section, key: "regions") {
                    if try reader.pipelineSetting(key, value, in: "regions", into: &configuration.pipeline) { continue }
                    switch key.string {
                    case "paths": configuration.regionPaths = try reader.strings(value, key: "regions.paths")
                    case "id_property": configuration.idProperty = try reader.string(value, key: "regions.id_property")
                    default:
                        throw reader.unknown(key, in: "regions", known: ["paths", "id_property"] + PipelineSettings.configurationKeys["regions", default: []])
                    }
                }
            case "silence":
                for (key, value) in try reader.mapping(section, key: "silence") {
                    guard try reader.pipelineSetting(key, value, in: "silence", into: &configuration.pipeline) else {
                        throw reader.unknown(key, in: "silence", known: PipelineSettings.configurationKeys["silence", default: []])
                    }
                }
            case "handlers":
                for (key, value) in try reader.mapping(section, key: "handlers") {
                    switch key.string {
                    case "socket_directory": configuration.handlerSocketDirectory = try reader.string(value, key: "handlers.socket_directory")
                    case "log_directory": configuration.handlerLogDirectory = try reader.string(value, key: "handlers.log_directory")
                    case "max_suspended":
                        configuration.maximumSuspendedHandlers = try reader.integer(value, key: "handlers.max_suspended", in: 0...10_000)
                    case "max_processes":
                        configuration.handlerMaximumProcesses = try reader.integer(value, key: "handlers.max_processes", in: 1...100_000)
                    case "memory_pressure_file":
                        let path = try reader.string(value, key: "handlers.memory_pressure_file")
                        configuration.memoryPressureFile = path == "none" ? nil : path
                    case "log_max_bytes":
                        configuration.handlerLogMaximumBytes = try reader.integer(value, key: "handlers.log_max_bytes", in: 4096...(1 << 40))
                    default:
                        throw reader.unknown(key, in: "handlers", known: ["socket_directory", "log_directory", "log_max_bytes", "max_suspended", "max_processes", "memory_pressure_file"])
                    }
                }
            case "bluetooth":
                var settings = BluetoothSettings()
                for (key, value) in try reader.mapping(section, key: "bluetooth") {
                    switch key.string {
                    case "adapter": settings.adapter = try reader.string(value, key: "bluetooth.adapter")
                    case "scan_interval": settings.scan.interval = try reader.positive(value, key: "bluetooth.scan_interval")
                    case "scan_window": settings.scan.window = try reader.positive(value, key: "bluetooth.scan_window")
                    default: throw reader.unknown(key, in: "bluetooth", known: ["adapter", "scan_interval", "scan_window"])
                    }
                }
                if let problem = settings.scan.problem { throw reader.error(section, key: "bluetooth", problem) }
                configuration.bluetooth = settings
            case "devices":
                var listener: DeviceListenerSettings?
                var maximumBody: Int?
                var tls: (certificate: String?, key: String?) = (nil, nil)
                for (key, value) in try reader.mapping(section, key: "devices") {
                    switch key.string {
                    case "listen":
                        let text = try reader.string(value, key: "devices.listen")
                        guard let parsed = DeviceListenerSettings(listen: text) else {
                            throw reader.error(value, key: "devices.listen", "'\(text)' is not HOST:PORT (port 0–65535), [IPv6]:PORT or :PORT")
                        }
                        listener = parsed
                    case "max_body_bytes":
                        maximumBody = try reader.integer(value, key: "devices.max_body_bytes", in: 256...(16 << 20))
                    case "tls_certificate": tls.certificate = try reader.string(value, key: "devices.tls_certificate")
                    case "tls_key": tls.key = try reader.string(value, key: "devices.tls_key")
                    case let steering where ConfigurationReader.steeringKeys.contains(steering):
                        try reader.steering(steering, value, into: &configuration.steering)
                    default:
                        throw reader.unknown(key, in: "devices", known: ["listen", "max_body_bytes", "tls_certificate", "tls_key"] + ConfigurationReader.steeringKeys)
                    }
                }
                if (tls.certificate == nil) != (tls.key == nil) {
                    throw reader.error(section, key: "devices", "tls_certificate and tls_key go together: give both or neither")
                }
                if let maximumBody { listener?.maximumBodySize = maximumBody }
                listener?.tlsCertificate = tls.certificate
                listener?.tlsKey = tls.key
                configuration.deviceListener = listener
            case "mqtt":
                configuration.mqtt = try reader.mqtt(section)
            case "outputs":
                configuration.outputs = try reader.outputs(section)
            case "subscriptions":
                configuration.subscriptions = try reader.subscriptions(section)
            case "power":
                configuration.power = try reader.power(section)
            case "web":
                configuration.web = try reader.web(section, over: configuration.web)
            case "log":
                for (key, value) in try reader.mapping(section, key: "log") {
                    switch key.string {
                    case "level":
                        let level = try reader.string(value, key: "log.level")
                        guard let parsed = Logger.Level(rawValue: level) else {
                            throw reader.error(value, key: "log.level", "'\(level)' is not one of trace, debug, info, notice, warning, error, critical")
                        }
                        configuration.logLevel = parsed
                    default: throw reader.unknown(key, in: "log", known: ["level"])
                    }
                }
            default:
                throw reader.unknown(name, in: nil, known: [
                        "store", "gpsd", "api", "regions", "silence", "handlers", "bluetooth", "devices", "mqtt", "outputs", "subscriptions", "power",
                        "web", "log",
                    ])
            }
        }
        return configuration
    }
}
