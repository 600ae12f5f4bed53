/// How an output spreads a batch over concurrent requests (docs/outputs.md, "Delivery"): a device
/// always in the same lane, its events one after another, so they arrive in order; lanes overlap
/// the receiver's round trips (one request at a time delivered about 2,400 events a second, four
/// lanes 4,300, eight 4,500–5,200; BENCHMARKS.md). The single daemon's outputs and the fleet's
/// output nodes both.
public enum DeliveryLanes {
    public static let count = 8

    /// A stable lane for the device.
    public static func lane(of device: String) -> Int { Int(StableHash.fnv1a(device) % UInt32(count)) }
}
