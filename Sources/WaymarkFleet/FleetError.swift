/// A fleet node cannot start or go on: a bad URL, a server that is not there, a database that
/// is not the fleet's. The message names what and where.
public struct FleetError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
