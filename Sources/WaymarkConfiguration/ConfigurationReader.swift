import Foundation
import WaymarkServices
import Yams

/// Typed access to YAML nodes with located errors.
public struct ConfigurationReader {
    public let file: String

    public init(file: String) { self.file = file }

    /// The text of a configuration file.
    public static func text(ofFile path: String) throws(ConfigurationError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, message: "cannot read the configuration file: \(error.localizedDescription)")
        }
    }

    /// Configuration text as a YAML node; nil for an empty file. `file` names it in errors.
    public static func compose(yaml text: String, file: String) throws(ConfigurationError) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationError(syntax: error, file: file)
        } catch {
            throw ConfigurationError(file: file, message: "not YAML: \(error)")
        }
    }

    public func error(_ node: Node, key: String?, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line, column: node.mark?.column, key: key, message: message)
    }

    public func unknown(_ key: Node.Scalar, in section: String?, known: [String]) -> ConfigurationError {
        let name = section.map { "\($0).\(key.string)" } ?? key.string
        return ConfigurationError(
            file: file, line: key.mark?.line, column: key.mark?.column, key: name,
            message: "unknown key; \(section.map { "[\($0)] takes" } ?? "the file takes sections") \(known.joined(separator: ", "))")
    }

    public func mapping(_ node: Node, key: String?) throws(ConfigurationError) -> [(Node.Scalar, Node)] {
        guard case .mapping(let mapping) = node else {
            throw error(node, key: key, key == nil ? "the file must be a mapping of sections (store:, gpsd:, api:, regions:, bluetooth:, subscriptions:, power:, log:)" : "must be a mapping of keys")
        }
        var pairs: [(Node.Scalar, Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else { throw error(keyNode, key: key, "keys must be plain names") }
            pairs.append((scalar, value))
        }
        return pairs
    }

    public func string(_ node: Node, key: String) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node, !scalar.string.isEmpty else { throw error(node, key: key, "must be a non-empty string") }
        return scalar.string
    }

    public func strings(_ node: Node, key: String) throws(ConfigurationError) -> [String] {
        if case .scalar = node { return [try string(node, key: key)] }
        guard case .sequence(let sequence) = node else { throw error(node, key: key, "must be a string or a list of strings") }
        var values: [String] = []
        for item in sequence { values.append(try string(item, key: key)) }
        return values
    }

    public func bool(_ node: Node, key: String) throws(ConfigurationError) -> Bool {
        guard case .scalar = node, let value = node.bool else { throw error(node, key: key, "must be true or false") }
        return value
    }

    public func integer(_ node: Node, key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard case .scalar = node, let value = node.int else { throw error(node, key: key, "must be an integer") }
        guard range.contains(value) else { throw error(node, key: key, "\(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// A positive, finite number (distances, durations).
    public func positive(_ node: Node, key: String) throws(ConfigurationError) -> Double {
        guard case .scalar = node, let value = node.float, value.isFinite else { throw error(node, key: key, "must be a number") }
        guard value > 0 else { throw error(node, key: key, "\(value) must be greater than 0") }
        return value
    }

    public func number(_ node: Node, key: String, in range: PartialRangeFrom<Double>) throws(ConfigurationError) -> Double {
        guard case .scalar = node, let value = node.float, value.isFinite else { throw error(node, key: key, "must be a number") }
        guard range.contains(value) else { throw error(node, key: key, "\(value) must be at least \(range.lowerBound)") }
        return value
    }

    /// An activity type, whose speed bound a gate or the GNSS schedule uses.
    public func activity(_ node: Node, key: String) throws(ConfigurationError) -> ActivityType {
        let text = try string(node, key: key)
        guard let activity = ActivityType(rawValue: text) else {
            throw error(node, key: key, "'\(text)' is not one of \(ActivityType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return activity
    }
}

extension ConfigurationError {
    /// A YAML syntax error, located.
    public init(syntax error: YamlError, file: String) {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            self.init(file: file, line: mark.line, column: mark.column, message: "YAML syntax: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            self.init(
                file: file, line: context.mark.line, column: context.mark.column,
                message: "duplicated keys: \(duplicates.joined(separator: ", "))")
        default:
            self.init(file: file, message: "YAML: \(error)")
        }
    }
}
