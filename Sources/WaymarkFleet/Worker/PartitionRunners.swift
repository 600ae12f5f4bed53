/// The consumers of the partitions a worker owns, one task each.
actor PartitionRunners {
    private var tasks: [Int: Task<Void, Never>] = [:]

    func start(_ consumer: PartitionConsumer) {
        tasks[consumer.partition] = Task { await consumer.run() }
    }

    /// Cancels `partition`'s consumer and returns once it has stopped (its batch written or abandoned).
    func stop(_ partition: Int) async {
        guard let task = tasks.removeValue(forKey: partition) else { return }
        task.cancel()
        await task.value
    }

    func stopAll() async {
        for partition in Array(tasks.keys) { await stop(partition) }
    }
}
