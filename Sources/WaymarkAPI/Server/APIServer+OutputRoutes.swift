import Foundation
import Hummingbird
import WaymarkCore
import WaymarkDevices
import WaymarkOutputs

extension APIServer {
    /// `/v1/outputs`: list (with each output's activity), add (answering the signing secret
    /// once), remove (docs/outputs.md). A bad field is a 400 naming it.
    static func addOutputRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend, configuration: Configuration) {
        routes.add("/v1/outputs", .get) { _, _ in
            try encoded(OutputList(outputs: try await backend.outputs()))
        }
        routes.add("/v1/outputs", .post) { request, context in
            var request = request
            let body = try await Self.jsonBody(&request, limit: configuration.maximumBodySize)
            let new: NewOutput
            do {
                new = try JSONDecoder().decode(NewOutput.self, from: Data(buffer: body))
            } catch {
                throw APIError(
                    .badRequest, code: "invalid-body",
                    message: "expected {\"name\": NAME, \"url\": URL, \"regions\", \"devices\", \"kinds\": [...], \"keepSeconds\": S}: \(error)")
            }
            let output: Output
            switch new.output(secret: DeviceSecret.generate().text, at: Timestamp(secondsSince1970: Date().timeIntervalSince1970)) {
            case .success(let value): output = value
            case .failure(let error): throw APIError.invalidParameter(error.field, error.message)
            }
            let added = try await backend.addOutput(output)
            context.logger.info("output added", metadata: ["output": "\(added.name)"])
            let isWebhook = if case .webhook = added.kind { true } else { false }
            return try encoded(OutputStatus(added, showSecret: isWebhook), status: .created)
        }
        routes.add("/v1/outputs/:name", .delete) { _, context in
            let name = try outputName(context)
            guard try await backend.removeOutput(name: name) else { throw noOutput(name) }
            context.logger.info("output removed", metadata: ["output": "\(name)"])
            return Response(status: .noContent)
        }
        routes.add("/v1/outputs/:name/retry", .post) { _, context in
            let name = try outputName(context)
            guard let count = try await backend.retryOutput(name: name) else { throw noOutput(name) }
            context.logger.info("output dead letters re-queued", metadata: ["output": "\(name)", "count": "\(count)"])
            return try encoded(OutputRetryResult(output: name, requeued: count))
        }
        routes.add("/v1/outputs/:name/test", .post) { _, context in
            let name = try outputName(context)
            guard let result = try await backend.testOutput(name: name) else { throw noOutput(name) }
            return try encoded(result)
        }
    }

    private static func outputName(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get("name"), let name = percentDecoded(raw) else {
            throw APIError(.badRequest, code: "invalid-identifier", message: "output name is not valid percent-encoded UTF-8")
        }
        return name
    }

    private static func noOutput(_ name: String) -> APIError { .notFound("no output \"\(name)\"", code: "no-output") }
}
