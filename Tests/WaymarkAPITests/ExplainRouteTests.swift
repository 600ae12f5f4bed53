import Hummingbird
import HummingbirdTesting
import Testing
import WaymarkAPI

/// `GET /v1/events/{id}/explain` (docs/explain.md) over a fake daemon.
@Suite struct ExplainRouteTests {
    static let answer = EventExplainAnswer(
        json: "{\"event\":{\"id\":7},\"reproduced\":true}", text: "event 7: enter \"home\" (region)\nreproduced: yes")

    static func backend() -> FakeBackend {
        let backend = FakeBackend()
        backend.state.withLock { $0.explanations[7] = answer }
        return backend
    }

    @Test func theExplanationIsAnsweredAsJSONOrText() async throws {
        try await APIRouterTests.withClient(Self.backend()) { client in
            let json = try await client.execute(uri: "/v1/events/7/explain", method: .get)
            #expect(json.status == .ok)
            #expect(json.headers[.contentType] == "application/json")
            #expect(String(buffer: json.body) == Self.answer.json)

            let text = try await client.execute(uri: "/v1/events/7/explain?format=text", method: .get)
            #expect(text.status == .ok)
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(String(buffer: text.body) == Self.answer.text + "\n")
        }
    }

    @Test func anUnknownOrMalformedIdAndABadFormatAreRefused() async throws {
        try await APIRouterTests.withClient(Self.backend()) { client in
            let unknown = try await client.execute(uri: "/v1/events/8/explain", method: .get)
            #expect(unknown.status == .notFound)
            let error = try APIRouterTests.error(unknown)
            #expect(error.code == "no-event")
            #expect(error.message.contains("no event 8"))

            for uri in ["/v1/events/seven/explain", "/v1/events/-1/explain", "/v1/events/0/explain"] {
                let malformed = try await client.execute(uri: uri, method: .get)
                #expect(malformed.status == .badRequest, "\(uri)")
                #expect(try APIRouterTests.error(malformed).code == "invalid-identifier")
            }
            let format = try await client.execute(uri: "/v1/events/7/explain?format=xml", method: .get)
            #expect(format.status == .badRequest)
            #expect(try APIRouterTests.error(format).message.contains("format"))

            let post = try await client.execute(uri: "/v1/events/7/explain", method: .post)
            #expect(post.status == .methodNotAllowed)
        }
    }
}
