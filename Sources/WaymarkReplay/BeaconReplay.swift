import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

/// The beacon half of a replay: advertisements through the beacon monitor and, when asked, the
/// ranger, written as `beacon` and `ranging` records.
struct BeaconReplay {
    var monitor: BeaconMonitor
    var ranger: BeaconRanger?
    var enters = 0
    var exits = 0
    var rangings = 0
    private var last: Timestamp?

    init(regions: [Region], ranging: Bool) {
        monitor = BeaconMonitor(regions: regions)
        // Ranging covers the beacons of the monitored regions, or every iBeacon when there are none.
        ranger = ranging ? BeaconRanger(constraints: monitor.regions.compactMap(\.beacon)) : nil
    }

    mutating func process(_ advertisement: BeaconAdvertisement, to output: inout some TextSink) throws {
        try range(before: advertisement.time, output: &output)
        ranger?.record(advertisement)
        try write(monitor.process(advertisement), to: &output)
        last = advertisement.time
    }

    /// Lets beacon time follow the track's: exits and rangings due before `time`.
    mutating func advance(to time: Timestamp, output: inout some TextSink) throws {
        guard last != nil else { return }
        try range(before: time, output: &output)
        try write(monitor.advance(to: time), to: &output)
        last = max(last ?? time, time)
    }

    /// At the end: rangings through the last instant. Exits that would fall due after the
    /// replay's last record are not reported: the recording ends there, not the beacons.
    mutating func finish(output: inout some TextSink) throws {
        guard let last else { return }
        try range(before: last, through: true, output: &output)
    }

    private mutating func write(_ update: BeaconUpdate, to output: inout some TextSink) throws {
        for transition in update.transitions where transition.notifies {
            if transition.kind == .enter { enters += 1 } else { exits += 1 }
            try output.write(BeaconRecords.transition(transition) + "\n")
        }
    }

    /// Writes the rangings due before `time` (through it with `through`).
    private mutating func range(before time: Timestamp, through: Bool = false, output: inout some TextSink) throws {
        guard var ranger else { return }
        var count = 0
        try ranger.rangings(before: time, through: through) { instant, beacons in
            count += 1
            try output.write(BeaconRecords.ranging(time: instant, beacons: beacons) + "\n")
        }
        self.ranger = ranger
        rangings += count
    }

    /// `{"advertisements":n,"regions":n,"transitions":{"enter":n,"exit":n},"ignored":{reason:n},"inside":[…]}`,
    /// with `"rangings":n` when ranging.
    func summary(_ counts: AdvertisementCounts) -> String {
        var json = JSONObjectWriter()
        json.add("advertisements", counts.accepted)
        json.add("regions", monitor.regions.count)
        json.addRaw("transitions", "{\"enter\":\(enters),\"exit\":\(exits)}")
        var ignored = JSONObjectWriter()
        for (reason, count) in counts.rejected.sorted(by: { $0.key < $1.key }) { ignored.add(reason, count) }
        json.addRaw("ignored", ignored.object)
        json.add("inside", monitor.insideRegions.map { monitor.regions[Int($0)].identifier })
        if ranger != nil { json.add("rangings", rangings) }
        return json.object
    }
}
