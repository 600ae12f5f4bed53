/// A configuration file that cannot be used, with the key and where it is.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The dotted key, e.g. `gpsd.port`, when the problem is one key.
    public var key: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `FILE:LINE:COLUMN: KEY: message`.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}
