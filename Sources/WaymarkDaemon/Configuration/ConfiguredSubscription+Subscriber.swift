import WaymarkPipeline

extension ConfiguredSubscription {
    /// The subscriber a device's pipeline runs for it: the live pipeline, and the evaluation of
    /// imported history (`waymark import`, `POST /v1/imports`) alike.
    public var subscriber: Subscriber { Subscriber(id: .subscription(name), services: services) }
}
