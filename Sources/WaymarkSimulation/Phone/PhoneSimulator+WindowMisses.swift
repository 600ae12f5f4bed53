import WaymarkCore
import WaymarkRegions

/// Every region there is, as truth: which of them the phone truly is in, second by second, so
/// an entry into one the phone was not watching is counted (a window miss).
struct TruthRegions: Sendable {
    let index: RegionIndex
    var inside: Set<Int32>?
    var scratch: [Int32] = []

    init(regions: [Region]) {
        index = RegionIndex(regions: regions.geographic)
    }
}

extension PhoneSimulator {
    /// How many missed entries `PhoneAccount.missedEntries` keeps.
    static let missedEntriesKept = 20

    mutating func countEntries(at sample: PhoneTruth.Sample) {
        guard var regions = truthRegions else { return }
        regions.index.containing(sample.coordinate, into: &regions.scratch)
        let now = Set(regions.scratch)
        if let before = regions.inside {
            let entered = now.subtracting(before).sorted()
            if !entered.isEmpty {
                let watched = watchedKeys
                for position in entered {
                    account.regionEntries += 1
                    let identifier = regions.index.identifier(at: Int(position))
                    guard !watched.contains(identifier) else { continue }
                    account.windowMisses += 1
                    if account.missedEntries.count < Self.missedEntriesKept { account.missedEntries.append((identifier, sample.time)) }
                }
            }
        }
        regions.inside = now
        truthRegions = regions
    }
}
