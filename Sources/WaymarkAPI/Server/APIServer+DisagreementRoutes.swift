import Hummingbird
import WaymarkCore
import WaymarkDevices

extension APIServer {
    /// `GET /v1/devices/{name}/disagreements?from=&to=[&tolerance=]`: the transitions a phone
    /// reported itself and the server's for the same regions, each one without a partner within
    /// `tolerance` seconds (default 300) with its reason (docs/devices.md, "Phone and server side
    /// by side"). 404 `no-device` for an unknown device.
    static func addDisagreementRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend) {
        routes.add("/v1/devices/:name/disagreements", .get) { request, context in
            let parameters = request.uri.queryParameters
            for (name, _) in parameters where !["from", "to", "tolerance"].contains(name) {
                throw APIError.invalidParameter(
                    String(name), "unknown parameter; /v1/devices/{name}/disagreements takes from, to and tolerance")
            }
            guard let raw = context.parameters.get("name"), let name = percentDecoded(raw) else {
                throw APIError(.badRequest, code: "invalid-identifier", message: "device name is not valid percent-encoded UTF-8")
            }
            if let problem = DeviceName.problem(with: name) { throw APIError.invalidParameter("name", problem) }
            guard let from = try parameters.time("from") else { throw APIError.invalidParameter("from", "missing: an RFC 3339 time") }
            guard let to = try parameters.time("to") else { throw APIError.invalidParameter("to", "missing: an RFC 3339 time") }
            guard from < to else { throw APIError.invalidParameter("to", "must be after from (\(from.rfc3339))") }
            var tolerance = 300.0
            if let text = parameters.get("tolerance") {
                guard let value = Double(text), value.isFinite, value >= 0, value <= 86_400 else {
                    throw APIError.invalidParameter("tolerance", "\"\(text)\" is not a number of seconds from 0 to 86400")
                }
                tolerance = value
            }
            guard let answer = try await backend.disagreements(device: name, from: from, to: to, tolerance: tolerance) else {
                throw APIError.notFound("no device \"\(name)\"", code: "no-device")
            }
            return json(answer)
        }
    }
}

extension DaemonBackend {
    /// No comparison: a backend without a history (the tests' fakes) has no such device.
    public func disagreements(device: String, from: Timestamp, to: Timestamp, tolerance: Double) async throws -> String? {
        nil
    }
}
