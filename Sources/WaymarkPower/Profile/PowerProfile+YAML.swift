import Foundation
import Yams

/// A profile that cannot be used, located in its file.
public struct PowerProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var key: String?
    public var message: String

    /// `FILE:LINE:COLUMN: KEY: message`.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
        return text + ": " + (key.map { "\($0): " } ?? "") + message
    }
}

extension PowerProfile {
    /// Reads a profile file:
    ///
    /// ```yaml
    /// name: ublox-m8-usb
    /// radio: gnss
    /// description: u-blox M8-class receiver on USB
    /// states:
    ///   tracking: { current_ma: 22, voltage: 3.0, source: "…" }
    /// start_seconds: { cold: 29, warm: 25, hot: 1 }
    /// ```
    ///
    /// A network radio (`wifi`, `cellular`) also says how traffic moves it (`TransferTiming`):
    ///
    /// ```yaml
    /// transfer: { promotion_seconds: 0.26, tail_seconds: 11.6, throughput_kbps: 6000 }
    /// ```
    ///
    /// Currents are in milliamperes; every required state of the radio must be present; an
    /// unknown key, a missing state, a negative current or a non-positive voltage is an error
    /// naming the file, line, column and key.
    public static func load(file path: String) throws(PowerProfileError) -> PowerProfile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw PowerProfileError(file: path, message: "cannot read the profile: \(error.localizedDescription)")
        }
        return try parse(yaml: text, file: path)
    }

    public static func parse(yaml text: String, file: String) throws(PowerProfileError) -> PowerProfile {
        func fail(_ node: Node?, _ key: String?, _ message: String) -> PowerProfileError {
            PowerProfileError(file: file, line: node?.mark?.line, column: node?.mark?.column, key: key, message: message)
        }
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else { throw fail(nil, nil, "the file is empty") }
            root = composed
        } catch let error as PowerProfileError {
            throw error
        } catch {
            throw fail(nil, nil, "not YAML: \(error)")
        }
        guard case .mapping(let top) = root else { throw fail(root, nil, "a profile is a mapping of name, radio, description, states, start_seconds") }
        var name: String?
        var radio: Radio?
        var description = ""
        var statesNode: Node?
        var startTimes: [String: Double] = [:]
        var transfer: TransferTiming?
        for (keyNode, value) in top {
            let key = keyNode.string ?? ""
            switch key {
            case "name": name = value.string
            case "radio":
                guard let text = value.string, let parsed = Radio(rawValue: text) else {
                    throw fail(value, "radio", "must be one of \(Radio.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                radio = parsed
            case "description": description = value.string ?? ""
            case "states": statesNode = value
            case "start_seconds":
                guard case .mapping(let starts) = value else { throw fail(value, key, "must be a mapping of start kind to seconds") }
                for (kind, seconds) in starts {
                    guard let number = seconds.float, number >= 0 else {
                        throw fail(seconds, "start_seconds.\(kind.string ?? "")", "must be a number of seconds ≥ 0")
                    }
                    startTimes[kind.string ?? ""] = number
                }
            case "transfer": transfer = try transferTiming(value, fail: fail)
            default:
                throw fail(keyNode, key, "unknown key; a profile takes name, radio, description, states, start_seconds, transfer")
            }
        }
        guard let name, !name.isEmpty else { throw fail(root, "name", "missing") }
        guard let radio else { throw fail(root, "radio", "missing") }
        guard let statesNode, case .mapping(let stateMap) = statesNode else { throw fail(statesNode ?? root, "states", "missing, or not a mapping") }
        var states: [String: PowerState] = [:]
        for (stateName, body) in stateMap {
            let state = stateName.string ?? ""
            let key = "states.\(state)"
            guard case .mapping(let fields) = body else { throw fail(body, key, "must be a mapping of current_ma, voltage, source") }
            var current: Double?
            var voltage: Double?
            var source: String?
            for (fieldNode, value) in fields {
                switch fieldNode.string ?? "" {
                case "current_ma":
                    guard let number = value.float, number.isFinite, number >= 0 else { throw fail(value, key + ".current_ma", "must be a number of milliamperes ≥ 0") }
                    current = number / 1000
                case "voltage":
                    guard let number = value.float, number.isFinite, number > 0 else { throw fail(value, key + ".voltage", "must be a number of volts > 0") }
                    voltage = number
                case "source":
                    guard let text = value.string, !text.isEmpty else { throw fail(value, key + ".source", "must name where the figure comes from") }
                    source = text
                default:
                    throw fail(fieldNode, key + ".\(fieldNode.string ?? "")", "unknown key; a state takes current_ma, voltage, source")
                }
            }
            guard let current, let voltage, let source else {
                throw fail(body, key, "needs current_ma, voltage and source")
            }
            states[state] = PowerState(current: current, voltage: voltage, source: source)
        }
        for required in requiredStates(of: radio) where states[required] == nil {
            throw fail(statesNode, "states.\(required)", "missing: a \(radio.rawValue) profile describes \(requiredStates(of: radio).joined(separator: ", "))")
        }
        if radio.isNetwork && transfer == nil {
            throw fail(root, "transfer", "missing: a \(radio.rawValue) profile says how traffic moves it (promotion_seconds, tail_seconds, throughput_kbps)")
        }
        return PowerProfile(name: name, radio: radio, description: description, states: states, startTimes: startTimes, transfer: transfer)
    }

    private static func transferTiming(
        _ node: Node, fail: (Node?, String?, String) -> PowerProfileError
    ) throws(PowerProfileError) -> TransferTiming {
        guard case .mapping(let fields) = node else {
            throw fail(node, "transfer", "must be a mapping of promotion_seconds, tail_seconds, throughput_kbps")
        }
        var values: [String: Double] = [:]
        for (fieldNode, value) in fields {
            let field = fieldNode.string ?? ""
            let key = "transfer.\(field)"
            guard ["promotion_seconds", "tail_seconds", "throughput_kbps"].contains(field) else {
                throw fail(fieldNode, key, "unknown key; transfer takes promotion_seconds, tail_seconds, throughput_kbps")
            }
            guard let number = value.float, number.isFinite, number >= 0, field != "throughput_kbps" || number > 0 else {
                throw fail(value, key, field == "throughput_kbps" ? "must be a number of kilobits a second > 0" : "must be a number of seconds ≥ 0")
            }
            values[field] = number
        }
        guard let promotion = values["promotion_seconds"], let tail = values["tail_seconds"], let kbps = values["throughput_kbps"] else {
            throw fail(node, "transfer", "needs promotion_seconds, tail_seconds and throughput_kbps")
        }
        return TransferTiming(promotionSeconds: promotion, tailSeconds: tail, bytesPerSecond: kbps * 1000 / 8)
    }
}
