import WaymarkDelivery
import WaymarkOutputs

/// The runners of the outputs an output node owns, one task each, with the definition each
/// was started with (a changed definition restarts it).
actor OutputRunners {
    private struct Running {
        var output: Output
        var task: Task<Void, Never>
        var stop: StopSignal
        /// Set when the events' runner ended by itself (its receiver answered 410).
        var ended: StopSignal
        var channel: OutputChannel
    }

    private var running: [String: Running] = [:]

    var names: [String] { running.keys.sorted() }

    func output(named name: String) -> Output? { running[name]?.output }

    func hasEnded(_ name: String) -> Bool { running[name]?.ended.isSet ?? false }

    /// Prepares the output's channel (Home Assistant's discovery), then runs its events and,
    /// for the formats that publish them, its positions side by side, both until `stop` is set.
    /// The output has ended when its events have (its receiver answered 410).
    func start(
        _ output: Output, channel: OutputChannel, stop: StopSignal, events: @escaping @Sendable () async -> Void,
        positions: (@Sendable () async -> Void)?
    ) {
        let ended = StopSignal()
        let task = Task {
            await channel.prepare()
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await events()
                    ended.set()
                }
                if let positions { group.addTask { await positions() } }
            }
        }
        running[output.name] = Running(output: output, task: task, stop: stop, ended: ended, channel: channel)
    }

    /// Stops `name`'s runners after the batch in hand, or, if its receiver keeps it retrying
    /// longer than `grace`, at once (the batch is redelivered to the next owner).
    func stop(_ name: String, grace: Duration = .seconds(5)) async {
        guard let runner = running.removeValue(forKey: name) else { return }
        runner.stop.set()
        let task = runner.task
        let timer = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        await task.value
        timer.cancel()
        runner.channel.close()
    }

    /// Stops every runner at once; their batches in hand are redelivered to the next owners.
    func stopAll() async {
        let all = running.values
        running.removeAll()
        for runner in all {
            runner.stop.set()
            runner.task.cancel()
        }
        for runner in all {
            await runner.task.value
            runner.channel.close()
        }
    }
}
