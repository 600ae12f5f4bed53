import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkDevices
import WaymarkStore

/// `waymark devices …`: the phones and trackers whose fixes Waymark records (docs/devices.md).
/// Through a running daemon's API when one answers, else straight into the database: devices
/// are read from the store when a request authenticates, so no reload is needed either way.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Add, list and remove devices: phones and trackers that feed Waymark over the network (docs/devices.md).",
        subcommands: [Add.self, List.self, Remove.self, Token.self])

    /// A request about one device to the daemon (see `call(_:_:path:)`).
    static func call(_ client: UnixSocketHTTPClient, _ method: String, device name: String, _ suffix: String = "") throws -> String? {
        try call(client, method, path: "/v1/devices/\(escaped(name))\(suffix)")
    }

    /// A request to the daemon about one thing: its answer, nil for 404, an error with the
    /// daemon's message for any other non-2xx.
    static func call(_ client: UnixSocketHTTPClient, _ method: String, path: String) throws -> String? {
        let response = try client.request(method: method, path: path)
        let text = String(decoding: response.body, as: UTF8.self)
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else { throw CommandError("the daemon answered \(response.status): \(text)") }
        return text
    }

    static func escaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
    }

    static func decode<T: Decodable>(_ type: T.Type, _ body: String, answering request: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body.utf8))
        } catch {
            throw CommandError("the daemon's answer to \(request) is not what this waymark expects: \(error)")
        }
    }

    static func checkName(_ name: String, field: String = "name") throws {
        if let problem = DeviceName.problem(with: name) { throw ValidationError("\(field): \(problem)") }
    }

    /// What `add` and `token` print: the secret once, and how to use it.
    static func printSecret(_ status: DeviceStatus) {
        print("device '\(status.name)' (user '\(status.user)')")
        print("secret: \(status.secret ?? "-")")
        print("Shown once: Waymark keeps only its SHA-256. Give it to the device as its password (HTTP Basic, user '\(status.name)') or bearer token; `waymark devices token \(status.name)` makes a new one.")
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a device and print its secret (shown once).")

        @Argument(help: "The device's name: letters, digits, '.', '_', '-' (OwnTracks' device id, OsmAnd's id).")
        var name: String

        @Option(help: "The person it belongs to (OwnTracks' user; default: the device's name).")
        var user: String?

        @OptionGroup var store: RegionsCommand.StoreOptions

        func validate() throws {
            try DevicesCommand.checkName(name)
            if let user { try DevicesCommand.checkName(user, field: "--user") }
        }

        func run() throws {
            switch try CommandTarget(store) {
            case .daemon(let client):
                let body = try JSONEncoder().encode(NewDevice(name: name, user: user))
                let answer = try RegionsCommand.call(client, "POST", "/v1/devices", body: Array(body))
                DevicesCommand.printSecret(try DevicesCommand.decode(DeviceStatus.self, answer, answering: "POST /v1/devices"))
            case .store(let database):
                let (device, secret) = try database.addDevice(name: name, user: user, at: Timestamp(secondsSince1970: Date().timeIntervalSince1970))
                DevicesCommand.printSecret(DeviceStatus(device, secret: secret))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Each device: name, user, whether it has a secret (and its first characters), when it was added, and from a running daemon its phone's mode (wanted, confirmed, ignoring commands).")

        @Flag(help: "One JSON object per line.")
        var json = false

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            var devices: [DeviceStatus]
            switch try CommandTarget(store) {
            case .daemon(let client):
                let answer = try RegionsCommand.call(client, "GET", "/v1/devices")
                devices = try DevicesCommand.decode(DeviceList.self, answer, answering: "GET /v1/devices").devices
                // Each phone's mode lives in the daemon's memory: `GET /v1/status` has it.
                let status = try RegionsCommand.call(client, "GET", "/v1/status")
                let modes = try DevicesCommand.decode(DeviceModes.self, status, answering: "GET /v1/status").modes
                for index in devices.indices { devices[index].mode = modes[devices[index].name] }
            case .store(let database):
                devices = try database.devices().map { DeviceStatus($0) }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for device in devices {
                if json {
                    print(String(decoding: try encoder.encode(device), as: UTF8.self))
                } else {
                    let secret = device.hasSecret ? "secret \(device.secretHint ?? "")…" : "no secret"
                    print("\(device.name)\tuser \(device.user)\t\(secret)\tadded \(device.createdAt)" + (device.mode.map { "\t\($0.summary)" } ?? ""))
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove devices (their history stays; `local` cannot be removed).")

        @Argument(help: "Device names.")
        var names: [String]

        @OptionGroup var store: RegionsCommand.StoreOptions

        func validate() throws {
            for name in names { try DevicesCommand.checkName(name) }
        }

        func run() throws {
            let target = try CommandTarget(store)
            for name in names {
                switch target {
                case .daemon(let client):
                    guard try DevicesCommand.call(client, "DELETE", device: name) != nil else {
                        throw CommandError("no device named '\(name)'")
                    }
                case .store(let database):
                    guard try database.removeDevice(named: name) else { throw CommandError("no device named '\(name)'") }
                }
                print("removed device '\(name)'")
            }
        }
    }

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a device a new secret and print it (shown once); the old one stops working at once.")

        @Argument(help: "The device's name.")
        var name: String

        @OptionGroup var store: RegionsCommand.StoreOptions

        func validate() throws { try DevicesCommand.checkName(name) }

        func run() throws {
            switch try CommandTarget(store) {
            case .daemon(let client):
                guard let text = try DevicesCommand.call(client, "POST", device: name, "/secret") else {
                    throw CommandError("no device named '\(name)'")
                }
                DevicesCommand.printSecret(try DevicesCommand.decode(DeviceStatus.self, text, answering: "POST /v1/devices/\(name)/secret"))
            case .store(let database):
                guard let (device, secret) = try database.newDeviceSecret(device: name) else { throw CommandError("no device named '\(name)'") }
                DevicesCommand.printSecret(DeviceStatus(device, secret: secret))
            }
        }
    }
}
