import Synchronization
import WaymarkCore
import WaymarkOutputs

extension OutputChannel {
    /// Home Assistant's MQTT discovery (`HomeAssistantFormat`), everything retained: before
    /// the workers start, a presence sensor and its state for every region the filter wants;
    /// a device's tracker the first time this run publishes for the device, a region's sensor
    /// the first time for a region imported since. A transition publishes its region's
    /// presence as the store has it then (the state committed with the event, or a later one):
    /// retained state only needs the newest to be right. A place change publishes the device
    /// tracker's state: the place, or `not_home` for none or a region the filter leaves out.
    static func homeAssistant(_ output: Output, sender: MQTTSender, base: String, context: OutputContext) -> OutputChannel {
        let announced = Announced()
        let retry = DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: context.activity, logger: context.logger)
        let wantsRegions = output.filter.kinds.isEmpty || output.filter.kinds.contains(.region)
        let wantsBeacons = output.filter.kinds.isEmpty || output.filter.kinds.contains(.beacon)

        @Sendable func publish(_ messages: [HomeAssistantFormat.Message]) async -> DeliveryOutcome {
            for message in messages {
                let outcome = await sender.send(message.payload, topic: message.topic, retain: true)
                guard outcome == .delivered else { return outcome }
            }
            return .delivered
        }
        @Sendable func presence(of region: String, name: String?) async -> DeliveryOutcome {
            let inside: [String]
            do {
                inside = try await context.lookups.devicesInside(region: region)
            } catch {
                return .failed("reading who is inside '\(region)': \(error)")
            }
            var messages = HomeAssistantFormat.presence(region: region, devicesInside: inside, base: base)
            if announced.first("region\n" + region) {
                messages.insert(HomeAssistantFormat.presenceDiscovery(region: region, name: name, base: base), at: 0)
            }
            let outcome = await publish(messages)
            if outcome != .delivered { announced.forget("region\n" + region) }
            return outcome
        }
        /// A device's message, after its tracker's discovery the first time.
        @Sendable func publish(_ message: HomeAssistantFormat.Message, of device: String) async -> DeliveryOutcome {
            let first = announced.first("device\n" + device)
            let outcome = await publish((first ? [HomeAssistantFormat.trackerDiscovery(device: device, base: base)] : []) + [message])
            if outcome != .delivered, first { announced.forget("device\n" + device) }
            return outcome
        }

        return OutputChannel(
            sendEvent: { _, event in
                if event.kind == .place {
                    let place = event.region.flatMap { output.filter.regions.isEmpty || output.filter.regions.contains($0) ? $0 : nil }
                    return await publish(HomeAssistantFormat.trackerState(device: event.device, place: place, base: base), of: event.device)
                }
                guard event.kind == .region || event.kind == .beacon, event.transition != "dwell", let region = event.region else {
                    return .delivered  // only transitions change a presence sensor
                }
                return await presence(of: region, name: nil)
            },
            publishLocation: { fix in
                await publish(HomeAssistantFormat.location(fix, base: base), of: fix.device)
            },
            prepare: {
                let regions: [(identifier: String, name: String?, beacon: Bool)]
                do {
                    regions = try await context.lookups.presenceRegions()
                } catch {
                    context.logger.error("Cannot read the regions for Home Assistant", metadata: ["output": "\(output.name)", "error": "\(error)"])
                    return
                }
                for region in regions where (region.beacon ? wantsBeacons : wantsRegions)
                    && (output.filter.regions.isEmpty || output.filter.regions.contains(region.identifier))
                {
                    guard await retry.run({ await presence(of: region.identifier, name: region.name) }) != .cancelled else { return }
                }
            })
    }
}

/// What this run has announced to Home Assistant (keys of devices and regions).
private final class Announced: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// True the first time for `key` (it is now announced).
    func first(_ key: String) -> Bool { keys.withLock { $0.insert(key).inserted } }

    /// An announcement that did not reach the broker: to be made again.
    func forget(_ key: String) { _ = keys.withLock { $0.remove(key) } }
}
