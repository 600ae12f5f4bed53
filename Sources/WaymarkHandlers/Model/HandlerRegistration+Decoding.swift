/// Decoding with the CLI's defaults, so an API client sends only what it sets:
/// `{"name":"hut-log","executable":"/usr/local/bin/hut-log","subscription":{"regions":["hut"]}}`.
extension HandlerRegistration {
    enum CodingKeys: String, CodingKey {
        case name, executable, arguments, workingDirectory, environment, subscription, relaunchAfterForceQuit,
            backgroundRefresh, exitsOnSuspend, limits, fetchInterval
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name), executable: try c.decode(String.self, forKey: .executable),
            arguments: try c.decodeIfPresent([String].self, forKey: .arguments) ?? [],
            workingDirectory: try c.decodeIfPresent(String.self, forKey: .workingDirectory) ?? "/",
            environment: try c.decodeIfPresent([String].self, forKey: .environment) ?? [],
            subscription: try c.decodeIfPresent(HandlerSubscription.self, forKey: .subscription) ?? HandlerSubscription(),
            relaunchAfterForceQuit: try c.decodeIfPresent(Bool.self, forKey: .relaunchAfterForceQuit) ?? true,
            backgroundRefresh: try c.decodeIfPresent(Bool.self, forKey: .backgroundRefresh) ?? true,
            exitsOnSuspend: try c.decodeIfPresent(Bool.self, forKey: .exitsOnSuspend) ?? false,
            limits: try c.decodeIfPresent(HandlerLimits.self, forKey: .limits) ?? HandlerLimits(),
            fetchInterval: try c.decodeIfPresent(Double.self, forKey: .fetchInterval))
    }
}

extension HandlerSubscription {
    enum CodingKeys: String, CodingKey {
        case services, regions, allRegions, beacons, allBeacons, ranging, authorizationLevel, precision, devices, accessory
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            services: try c.decodeIfPresent(ServiceSubscriptionSettings.self, forKey: .services) ?? ServiceSubscriptionSettings(),
            regions: try c.decodeIfPresent([String].self, forKey: .regions) ?? [],
            allRegions: try c.decodeIfPresent(Bool.self, forKey: .allRegions) ?? false,
            beacons: try c.decodeIfPresent([String].self, forKey: .beacons) ?? [],
            allBeacons: try c.decodeIfPresent(Bool.self, forKey: .allBeacons) ?? false,
            ranging: try c.decodeIfPresent([String].self, forKey: .ranging) ?? [],
            authorizationLevel: try c.decodeIfPresent(String.self, forKey: .authorizationLevel) ?? "always",
            precision: try c.decodeIfPresent(String.self, forKey: .precision) ?? "precise",
            devices: try c.decodeIfPresent([String].self, forKey: .devices) ?? [],
            accessory: try c.decodeIfPresent(Bool.self, forKey: .accessory) ?? false)
    }
}

extension ServiceSubscriptionSettings {
    enum CodingKeys: String, CodingKey {
        case standard, desiredAccuracy, distanceFilter, pauses, deferredDistance, deferredInterval, significantChange, visits, timeline, activity
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            standard: try c.decodeIfPresent(Bool.self, forKey: .standard) ?? false,
            desiredAccuracy: try c.decodeIfPresent(String.self, forKey: .desiredAccuracy),
            distanceFilter: try c.decodeIfPresent(Double.self, forKey: .distanceFilter),
            pauses: try c.decodeIfPresent(Bool.self, forKey: .pauses) ?? false,
            deferredDistance: try c.decodeIfPresent(Double.self, forKey: .deferredDistance),
            deferredInterval: try c.decodeIfPresent(Double.self, forKey: .deferredInterval),
            significantChange: try c.decodeIfPresent(Bool.self, forKey: .significantChange) ?? false,
            visits: try c.decodeIfPresent(Bool.self, forKey: .visits) ?? false,
            timeline: try c.decodeIfPresent(Bool.self, forKey: .timeline) ?? false,
            activity: try c.decodeIfPresent(String.self, forKey: .activity) ?? "other")
    }
}

extension HandlerLimits {
    enum CodingKeys: String, CodingKey { case budget, maximumBackgroundTime, memoryBytes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            budget: try c.decodeIfPresent(Double.self, forKey: .budget) ?? 10,
            maximumBackgroundTime: try c.decodeIfPresent(Double.self, forKey: .maximumBackgroundTime) ?? 180,
            memoryBytes: try c.decodeIfPresent(Int.self, forKey: .memoryBytes))
    }
}
