extension Timestamp {
    /// The start of the UTC hour holding this instant (hours since 1970 are whole: UTC has no
    /// leap seconds in this count). The energy ledger keeps its buckets per such hour.
    public var hourStart: Timestamp {
        let hour: Int64 = 3_600_000_000_000
        let n = nanosecondsSince1970
        return Timestamp(nanosecondsSince1970: n - ((n % hour) + hour) % hour)
    }

    /// The start of the second holding this instant: what listings show (a device's or an
    /// output's creation), as the migration-made rows have it.
    public var secondStart: Timestamp {
        let second: Int64 = 1_000_000_000
        let n = nanosecondsSince1970
        return Timestamp(nanosecondsSince1970: n - ((n % second) + second) % second)
    }
}
