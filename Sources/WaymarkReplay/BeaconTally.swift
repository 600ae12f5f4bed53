import WaymarkBeacons
import WaymarkCore
import WaymarkPipeline
import WaymarkSources

/// The beacon half of a replay's summary: transitions and rangings counted from the events.
struct BeaconTally {
    let ranging: Bool
    var enters = 0
    var exits = 0
    var rangings = 0

    mutating func count(_ event: LocationEvent) {
        switch event {
        case .beacon(let transition): if transition.kind == .enter { enters += 1 } else { exits += 1 }
        case .ranging: rangings += 1
        default: break
        }
    }

    /// `{"advertisements":n,"regions":n,"transitions":{"enter":n,"exit":n},"ignored":{reason:n},"inside":[…]}`,
    /// with `"rangings":n` when ranging.
    func summary(_ counts: AdvertisementCounts, monitor: BeaconMonitor) -> String {
        var json = JSONObjectWriter()
        json.add("advertisements", counts.accepted)
        json.add("regions", monitor.regions.count)
        json.addRaw("transitions", "{\"enter\":\(enters),\"exit\":\(exits)}")
        var ignored = JSONObjectWriter()
        for (reason, count) in counts.rejected.sorted(by: { $0.key < $1.key }) { ignored.add(reason, count) }
        json.addRaw("ignored", ignored.object)
        json.add("inside", monitor.insideRegions.map { monitor.regions[Int($0)].identifier })
        if ranging { json.add("rangings", rangings) }
        return json.object
    }
}
