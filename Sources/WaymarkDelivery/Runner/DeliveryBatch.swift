import WaymarkOutputs

/// How a batch of events is spread and how it ends (docs/outputs.md, "Delivery"), as a value.
/// Its devices go to lanes (`DeliveryLanes`: a device always in the same one, its events in
/// order); the lanes run side by side. Every lane finishing commits the batch. The first lane
/// that does not finish decides for the batch and the others are cancelled: a 410 disables the
/// output, anything else (shutting down, a dead letter that could not be kept) releases the
/// batch, to be delivered again, with the same CloudEvents ids, before anything newer.
public struct DeliveryBatch: Sendable, Equatable {
    /// How one lane ended.
    public enum LaneEnd: Sendable, Equatable {
        /// Every event delivered or dead-lettered.
        case finished
        /// The receiver said 410.
        case disable(String)
        case stop
    }

    /// What becomes of the batch.
    public enum End: Sendable, Equatable {
        case commit
        case disable(String)
        case release
    }

    public private(set) var end = End.commit

    public init() {}

    /// The events' lanes, each in the batch's order; empty lanes left out.
    public static func lanes(_ events: [OutputEvent]) -> [[OutputEvent]] {
        var byLane = [[OutputEvent]](repeating: [], count: DeliveryLanes.count)
        for event in events { byLane[DeliveryLanes.lane(of: event.device)].append(event) }
        return byLane.filter { !$0.isEmpty }
    }

    /// A lane ended; true when the other lanes must be cancelled (the first lane that did not finish).
    public mutating func laneEnded(_ lane: LaneEnd) -> Bool {
        guard end == .commit else { return false }
        switch lane {
        case .finished: return false
        case .disable(let reason): end = .disable(reason)
        case .stop: end = .release
        }
        return true
    }
}
