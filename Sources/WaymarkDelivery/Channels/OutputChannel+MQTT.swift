import WaymarkOutputs
import WaymarkSources

extension OutputChannel {
    /// An MQTT output's channel for its format, its publisher started.
    static func mqtt(_ output: Output, target: MQTTTarget, context: OutputContext) throws(MQTTError) -> OutputChannel {
        // The session stays open, pinging when quiet: the radio cannot rest while it lasts.
        let party = OutputTraffic.party(ofOutput: output.name)
        let sender = try MQTTSender.start(
            output, target: target, traffic: { [network = context.network] in network?.transfer($0, by: party) },
            logger: context.logger)
        context.network?.opened(by: party, keepalive: Double(sender.publisher.settings.keepAlive))
        var channel: OutputChannel
        switch output.format {
        case .cloudEvents:
            channel = OutputChannel(sendEvent: { body, event in await sender.send(body, topic: target.topic(for: event)) })
        case .ownTracks:
            channel = ownTracks(sender: sender, base: target.topic, origin: context.source, context: context)
        case .homeAssistant:
            channel = homeAssistant(output, sender: sender, base: target.topic, context: context)
        }
        channel.close = { [network = context.network] in
            sender.publisher.stop()
            network?.closed(by: party)
        }
        return channel
    }

    /// OwnTracks' messages on `BASE/USER/DEVICE[/event]` (`OwnTracksFormat`).
    private static func ownTracks(sender: MQTTSender, base: String, origin: String, context: OutputContext) -> OutputChannel {
        OutputChannel(
            sendEvent: { _, event in
                let fix = event.kind == .region || event.kind == .beacon ? await context.fix(of: event.device, atOrBefore: event.time) : nil
                let user = await context.user(of: event.device)
                // Kinds OwnTracks has no message for are passed over, as delivered.
                guard let message = OwnTracksFormat.message(for: event, fix: fix, user: user, base: base, origin: origin) else { return .delivered }
                return await sender.send(message.payload, topic: message.topic)
            },
            publishLocation: { fix in
                let message = OwnTracksFormat.location(fix, user: await context.user(of: fix.device), base: base, origin: origin)
                return await sender.send(message.payload, topic: message.topic)
            })
    }
}
