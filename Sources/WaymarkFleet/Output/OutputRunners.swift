import WaymarkDelivery
import WaymarkOutputs

/// The consumers of the outputs an output node owns, one task each, with the definition each
/// was started with (a changed definition restarts it).
actor OutputRunners {
    private struct Running {
        var output: Output
        var task: Task<Void, Never>
        var stop: StopSignal
        /// Set when the consumer ended by itself (its receiver answered 410).
        var ended: StopSignal
        var delivery: OutputDelivery
    }

    private var running: [String: Running] = [:]

    var names: [String] { running.keys.sorted() }

    func output(named name: String) -> Output? { running[name]?.output }

    func hasEnded(_ name: String) -> Bool { running[name]?.ended.isSet ?? false }

    /// Prepares the output's channel (Home Assistant's discovery), then runs its events and,
    /// for the formats that publish them, its positions side by side. The output has ended when
    /// its events have (its receiver answered 410).
    func start(_ consumer: OutputConsumer, positions: PositionConsumer?) {
        let (stop, ended) = (StopSignal(), StopSignal())
        let task = Task {
            await consumer.delivery.prepare()
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await consumer.run(until: stop)
                    ended.set()
                }
                if let positions { group.addTask { await positions.run(until: stop) } }
            }
        }
        running[consumer.output.name] = Running(output: consumer.output, task: task, stop: stop, ended: ended, delivery: consumer.delivery)
    }

    /// Stops `name`'s consumer after the batch in hand, or, if its receiver keeps it retrying
    /// longer than `grace`, at once (the batch is redelivered to the next owner).
    func stop(_ name: String, grace: Duration = .seconds(5)) async {
        guard let consumer = running.removeValue(forKey: name) else { return }
        consumer.stop.set()
        let task = consumer.task
        let timer = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        await task.value
        timer.cancel()
        consumer.delivery.close()
    }

    /// Stops every consumer at once; their batches in hand are redelivered to the next owners.
    func stopAll() async {
        let all = running.values
        running.removeAll()
        for consumer in all {
            consumer.stop.set()
            consumer.task.cancel()
        }
        for consumer in all {
            await consumer.task.value
            consumer.delivery.close()
        }
    }
}
