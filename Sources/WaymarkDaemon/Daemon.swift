import Foundation
import Logging
import ServiceLifecycle
import WaymarkCore
import WaymarkHandlers
import WaymarkAPI
import WaymarkSources
import WaymarkPipeline
import WaymarkStore
import WaymarkTimelineJob

/// `waymark serve`: the long-running service. One `ServiceGroup` holds the fix source (gpsd or
/// a replay), the API server, region reloading on SIGHUP and history retention; SIGTERM and
/// SIGINT shut it down gracefully.
public enum Daemon {
    public static let version = "0.1.0"

    /// Opens the store, loads the configured regions, and runs until shut down. Fails before
    /// serving when the store cannot be opened or a configured region file is bad.
    public static func run(_ given: DaemonConfiguration, logger: Logger) async throws {
        let configuration = given.withAbsolutePaths(from: FileManager.default.currentDirectoryPath)
        HandlerProcess.withholdAmbientCapabilities()
        HandlerProcess.raiseDescriptorLimit()
        for folder in configuration.folders {
            try PrivateFolder.create(folder, mustBeOwnPrivate: folder == DefaultLocations.sharedRuntimeFolder)
        }
        // Start-up reads and writes too stay off the cooperative pool (docs/durability.md).
        let store = try await WaymarkStore.open(path: configuration.database, logger: logger)
        let loader = RegionLoader(store: store, paths: configuration.regionPaths, idProperty: configuration.idProperty)
        let regions = try await loader.load()
        let clock = SystemWallClock()
        let pipelineBox = PipelineBox()
        let feed = LiveFeed { count in Task { await pipelineBox.pipeline?.liveSubscribersChanged(count) } }
        let track = configuration.replay?.trackPath
        let sourceKind: DaemonStatus.Source.Kind = track == nil ? .gpsd : .replay
        let sourceDescription = track.map { "replay:\($0)" } ?? "gpsd:\(configuration.gpsdHost):\(configuration.gpsdPort)"
        let writer = StoreWriter(store: store, logger: logger)
        let network = NetworkMeter(profile: configuration.power.networkProfile(detected: DefaultRouteRadio.detect()), clock: clock, logger: logger)
        let phones = PhoneEnergyMeter(profiles: configuration.power.phoneProfiles, clock: clock)
        let saved = try await store.offPool { try (states: $0.savedRegionStates(), marks: $0.savedMarks()) }
        let pipeline = LivePipeline(
            store: store, writer: writer, regions: RegionMonitors(regions, settings: configuration.pipeline), savedStates: saved.states,
            savedMarks: saved.marks, sourceKind: sourceKind, sourceDescription: sourceDescription,
            feed: feed, subscriptions: configuration.subscriptions, recordFixes: configuration.recordFixes,
            power: configuration.power, network: network, clock: clock, logger: logger)
        pipelineBox.pipeline = pipeline
        let handlerSocket = try await HandlerSocketServer.bind(base: configuration.handlerSocketDirectory, logger: logger)
        var handlerSettings = HandlerSupervisor.Settings()
        handlerSettings.logDirectory = configuration.handlerLogDirectory
        handlerSettings.logMaximumBytes = configuration.handlerLogMaximumBytes
        handlerSettings.lifecycle.maximumSuspended = configuration.maximumSuspendedHandlers
        handlerSettings.maximumProcesses = configuration.handlerMaximumProcesses
        handlerSettings.memoryPressureFile = configuration.memoryPressureFile
        handlerSettings.cgroups = HandlerCgroups.prepare(instance: configuration.database, logger: logger)
        let handlerQueries = HandlerQueryBackend()
        let supervisor = HandlerSupervisor(
            store: store, socketPath: handlerSocket.path, settings: handlerSettings,
            queries: handlerQueries.queries,
            clock: clock, logger: logger)
        // Before anything can be launched: what a daemon that died without its shutdown left.
        await supervisor.endOrphans()
        await supervisor.clearForceQuitMarksOfEarlierBoots()
        let created = try await store.offPool { try $0.regionImportTimes() }
        let fleet = DeviceFleet(
            store: store, writer: writer, regions: regions, created: created, settings: configuration.pipeline, steering: configuration.steering, feed: feed,
            clock: clock, logger: logger)
        let directory = DeviceDirectory(store: store)
        let configuredOutputs = configuration.outputs
        try await store.offPool { store in for output in configuredOutputs { try store.saveConfiguredOutput(output) } }
        let outputService = OutputService(store: store, feed: feed, directory: directory, network: network, logger: logger)
        // Uploaded history (`POST /v1/imports`) evaluated as `waymark import` evaluates it.
        let imports = HistoryImports(
            store: store, uploads: folder(of: configuration.database) + "/imports",
            subscribers: configuration.subscriptions.map(\.subscriber),
            settings: configuration.pipeline, clock: clock, logger: logger)
        let state = DaemonState(
            store: store, pipeline: pipeline, fleet: fleet, directory: directory, feed: feed, startedAt: .now, version: version, supervisor: supervisor,
            outputService: outputService, historyImports: imports,
            timelines: StoreTimelines(
                store: store, places: PlaceIndexLoader(logger: logger) { try PlaceDataFile.loadIfInstalled() }, logger: logger),
            phoneEnergy: phones)
        handlerQueries.answer(with: state)
        try await state.reloadHandlers()

        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let replay = configuration.replay {
            let previous = try await store.offPool { try $0.lastFix() }
            let resumeAfter = previous?.source == sourceDescription ? previous?.fix.time : nil
            services.append(.init(
                service: ReplayFeedService(settings: replay, pipeline: pipeline, resumeAfter: resumeAfter, logger: logger),
                successTerminationBehavior: .gracefullyShutdownGroup))
        }
        if track == nil {
            let source = GpsdSource(host: configuration.gpsdHost, port: configuration.gpsdPort, logger: logger)
            await pipeline.onWatchingChanged { source.setWatching($0) }
            services.append(.init(service: GpsdFeedService(source: source, pipeline: pipeline)))
        }
        if let bluetooth = configuration.bluetooth {
            services.append(.init(service: BluetoothFeedService(settings: bluetooth, pipeline: pipeline, logger: logger)))
        }
        let token = try configuration.tokenFile.map(APIToken.read(from:))
        var api = APIServer.Configuration(socketPath: configuration.socketPath, tcpPort: configuration.tcpPort, token: token)
        api.socketGroup = configuration.apiGroup
        api.web = configuration.web
        // The named or installed basemap (docs/web.md, "Basemap"); an unreadable one stops the
        // daemon now, with the file named.
        api.basemap = try await configuration.web.openBasemap(logger: logger)
        services.append(.init(service: try APIServer(
            configuration: api,
            backend: state, logger: logger)))
        if let listener = configuration.deviceListener {
            let tls = listener.tlsCertificate.flatMap { certificate in listener.tlsKey.map { (certificate: certificate, key: $0) } }
            // Unreadable certificates stop the daemon now, with the file named, not once it runs.
            if let tls { _ = try DeviceIngestServer.tlsConfiguration(certificate: tls.certificate, key: tls.key) }
            // Listening keeps the radio reachable; each exchange's bytes are the devices' traffic.
            network.opened(by: NetworkMeter.listener)
            var ingest = DeviceIngestServer.Configuration(host: listener.host, port: listener.port, maximumBodySize: listener.maximumBodySize, tls: tls)
            ingest.onTraffic = { network.transfer($0, by: NetworkMeter.listener) }
            services.append(.init(service: DeviceIngestServer(
                configuration: ingest,
                backend: DeviceIngest(store: store, directory: directory, fleet: fleet, phoneEnergy: phones), logger: logger)))
        }
        if let mqtt = configuration.mqtt {
            services.append(.init(service: MQTTFeedService(
                settings: mqtt, origin: OutputService.origin(), directory: directory, fleet: fleet, network: network, phoneEnergy: phones,
                logger: logger)))
        }
        services.append(.init(service: RegionReloadService(loader: loader, pipeline: pipeline, fleet: fleet, logger: logger)))
        services.append(.init(service: HandlerService(supervisor: supervisor, socket: handlerSocket)))
        services.append(.init(service: outputService))
        services.append(.init(service: EnergyFlushService(pipeline: pipeline, clock: clock, phones: (phones, store, logger))))
        if let days = configuration.retentionDays {
            services.append(.init(service: RetentionService(store: store, days: days, logger: logger)))
        }
        logger.notice(
            "Waymark starting",
            metadata: [
                "version": "\(version)", "store.path": "\(configuration.database)", "regions": "\(regions.count)",
                "subscriptions": "\(configuration.subscriptions.map(\.name))",
                "source": "\(sourceDescription)", "beacons": "\(configuration.replay?.beaconPath ?? configuration.bluetooth.map { "bluetooth:\($0.adapter ?? "first adapter")" } ?? "none")",
                "api.socket": "\(configuration.socketPath)",
                "power.gnss_profile": "\(configuration.power.gnssProfile.name)",
                "power.bluetooth_profile": "\(configuration.power.bluetoothProfile.name)",
                "power.aware": "\(configuration.power.aware)",
                "power.network": "\(network.radio.map { "\($0.rawValue) (\(network.profileName ?? ""))" } ?? "none")",
            ])
        // Start-up is over: what it read and allocated is not kept (BENCHMARKS.md, at rest).
        try await store.offPool { $0.releaseMemory() }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await pipeline.finishSubscriptions()
        await pipeline.finishPower()
        await phones.flush(to: store, logger: logger)
        await writer.shutdown()
        feed.finish()
        logger.notice("Waymark stopped")
    }
}

/// Lets the live feed, made before the pipeline, reach it.
private final class PipelineBox: @unchecked Sendable {
    // Written once before any subscriber can exist; read afterwards.
    nonisolated(unsafe) var pipeline: LivePipeline?
}
