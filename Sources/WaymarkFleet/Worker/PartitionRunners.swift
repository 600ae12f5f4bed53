/// The consumers of the partitions a worker owns, one task each.
actor PartitionRunners {
    private var tasks: [Int: (task: Task<Void, Never>, stop: StopSignal)] = [:]

    func start(_ consumer: PartitionConsumer) {
        let stop = StopSignal()
        tasks[consumer.partition] = (Task { await consumer.run(until: stop) }, stop)
    }

    /// Asks `partition`'s consumer to stop and returns once it has: its batch written and
    /// acknowledged, or abandoned to redelivery.
    func stop(_ partition: Int) async {
        guard let running = tasks.removeValue(forKey: partition) else { return }
        running.stop.set()
        await running.task.value
    }

    /// Stops every consumer, all at once.
    func stopAll() async {
        let running = tasks.values
        tasks.removeAll()
        for consumer in running { consumer.stop.set() }
        for consumer in running { await consumer.task.value }
    }
}
