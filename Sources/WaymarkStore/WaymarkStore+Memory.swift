import CMalloc
import GRDB

extension WaymarkStore {
    /// Gives back what start-up used and a store at rest does not need: SQLite's page caches
    /// and the pool's reader connections (each holds a parsed schema and a SpatiaLite context;
    /// the next read opens one again), then the C heap's free pages. Creating a new database
    /// (SpatiaLite's metadata tables and thousands of reference systems) leaves about 8 MB of
    /// freed heap that glibc keeps otherwise. Blocks until running reads and writes are done:
    /// call it off the cooperative pool.
    public func releaseMemory() {
        (database as? DatabasePool)?.releaseMemory()
        malloc_trim(0)
    }
}

extension WaymarkStore {
    /// Gives the C heap's free pages back to the system (glibc keeps them otherwise): for a
    /// caller that has just closed a store and is about to allocate what it runs on.
    public static func releaseFreedMemory() {
        malloc_trim(0)
    }
}
