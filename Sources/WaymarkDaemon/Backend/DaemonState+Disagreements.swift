import WaymarkCore
import WaymarkPipeline
import WaymarkStore

extension DaemonState {
    /// `GET /v1/devices/{name}/disagreements`: `WaymarkStore.transitionComparison`, off the pool.
    func disagreements(device: String, from: Timestamp, to: Timestamp, tolerance: Double) async throws -> String? {
        try await store.offPool { store in
            let known = try store.devices().contains { $0.name == device }
            guard known || device == "local" else { return nil }
            let comparison = try store.transitionComparison(device: device, from: from, to: to, tolerance: tolerance)
            return comparison.answer(device: device, from: from, to: to, tolerance: tolerance)
        }
    }
}
