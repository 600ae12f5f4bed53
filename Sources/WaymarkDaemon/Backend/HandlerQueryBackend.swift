import Synchronization
import WaymarkAPI
import WaymarkHandlers

/// Handlers' `regionState` and `lastLocation` (docs/handlers.md), answered by the reads behind
/// `GET /v1/regions/{id}/state?device=` and `GET /v1/fixes/last?device=`: a handler and an API
/// client asking about the same device get the same answer, from that device's pipeline (made
/// from its saved states if it has sent nothing since start) or, for the last fix, the store.
///
/// The daemon's state holds the supervisor these queries are given to, so it is made after it
/// and handed over with `answer(with:)` before any handler can connect.
final class HandlerQueryBackend: Sendable {
    private let state = Mutex<DaemonState?>(nil)

    func answer(with state: DaemonState) {
        self.state.withLock { $0 = state }
    }

    var queries: HandlerSupervisor.Queries {
        HandlerSupervisor.Queries(
            regionState: { region, device in
                try await self.read(device) { try await $0.regionState(identifier: region, device: device)?.json ?? "null" }
            },
            lastLocation: { device in
                try await self.read(device) { try await $0.lastFix(device: device)?.json ?? "null" }
            })
    }

    /// `body` on the daemon's state; the API's `no-device` becomes the handler protocol's
    /// `handler.unknown-device`.
    private func read(_ device: String, _ body: (DaemonState) async throws -> String) async throws -> String {
        guard let state = state.withLock({ $0 }) else {
            throw HandlerQueryError(code: .unavailable, message: "the daemon is still starting: ask again")
        }
        do {
            return try await body(state)
        } catch let error as APIError where error.code == APIError.noDevice(device).code {
            throw HandlerQueryError.unknownDevice(device)
        }
    }
}
