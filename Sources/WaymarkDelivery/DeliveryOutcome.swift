/// What a receiver made of one delivery: taken (a webhook's 2xx, a broker's PUBACK), the output
/// told to stop (a webhook's 410), or a failure to retry.
public enum DeliveryOutcome: Sendable, Equatable {
    case delivered
    case gone(String)
    case failed(String)
}
