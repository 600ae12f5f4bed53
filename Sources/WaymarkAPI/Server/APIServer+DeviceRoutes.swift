import Foundation
import Hummingbird
import WaymarkDevices

extension APIServer {
    /// `/v1/devices`: list, add (answering the new secret once), remove, and a new secret
    /// (docs/api.md). Names are checked here, so a bad one is a 400 naming the field.
    static func addDeviceRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend, configuration: Configuration) {
        routes.add("/v1/devices", .get) { _, _ in
            try encoded(DeviceList(devices: try await backend.devices().map { DeviceStatus($0) }))
        }
        routes.add("/v1/devices", .post) { request, context in
            var request = request
            let body = try await Self.jsonBody(&request, limit: configuration.maximumBodySize)
            let new: NewDevice
            do {
                new = try JSONDecoder().decode(NewDevice.self, from: Data(buffer: body))
            } catch {
                throw APIError(.badRequest, code: "invalid-body", message: "expected {\"name\": NAME, \"user\": USER (optional)}: \(error)")
            }
            if let problem = DeviceName.problem(with: new.name) { throw APIError.invalidParameter("name", problem) }
            if let user = new.user, let problem = DeviceName.problem(with: user) { throw APIError.invalidParameter("user", problem) }
            let (device, secret) = try await backend.addDevice(name: new.name, user: new.user)
            context.logger.info("device added", metadata: ["device": "\(device.name)"])
            return try encoded(DeviceStatus(device, secret: secret), status: .created)
        }
        routes.add("/v1/devices/:name", .delete) { _, context in
            let name = try deviceName(context)
            guard try await backend.removeDevice(name: name) else { throw noDevice(name) }
            context.logger.info("device removed", metadata: ["device": "\(name)"])
            return Response(status: .noContent)
        }
        routes.add("/v1/devices/:name/secret", .post) { _, context in
            let name = try deviceName(context)
            guard let (device, secret) = try await backend.newDeviceSecret(name: name) else { throw noDevice(name) }
            context.logger.info("device secret changed", metadata: ["device": "\(name)"])
            return try encoded(DeviceStatus(device, secret: secret))
        }
    }

    private static func deviceName(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get("name"), let name = percentDecoded(raw) else {
            throw APIError(.badRequest, code: "invalid-identifier", message: "device name is not valid percent-encoded UTF-8")
        }
        if let problem = DeviceName.problem(with: name) { throw APIError.invalidParameter("name", problem) }
        return name
    }

    private static func noDevice(_ name: String) -> APIError { .notFound("no device \"\(name)\"", code: "no-device") }

    /// A value as the API's JSON: sorted keys, slashes unescaped.
    static func encoded(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
    }
}
