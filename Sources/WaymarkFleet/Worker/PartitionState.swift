import WaymarkBeacons
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions

/// The devices of one partition that a worker owns: each device's pipeline and the last
/// stream sequence it applied. Pure: fixes in, a `FleetBatch` out; the worker loads devices it
/// has not seen (`admit`) and writes the batches.
struct PartitionState: Sendable {
    struct Cursor: Sendable {
        var pipeline: DevicePipeline
        var lastSequence: UInt64
    }

    /// One fix, one report of a device about itself, or one beacon it saw, from the bus, with
    /// its stream sequence.
    struct Input: Sendable {
        enum Payload: Sendable {
            case fix(FixPayload)
            case report(ReportPayload)
            case sighting(device: String, BeaconAdvertisement)
        }

        var sequence: UInt64
        var payload: Payload
        /// When JetStream stored it.
        var queuedAt: Timestamp? = nil

        init(sequence: UInt64, payload: FixPayload, queuedAt: Timestamp? = nil) {
            self.init(sequence: sequence, payload: .fix(payload), queuedAt: queuedAt)
        }

        init(sequence: UInt64, payload: Payload, queuedAt: Timestamp? = nil) {
            self.sequence = sequence
            self.payload = payload
            self.queuedAt = queuedAt
        }

        var device: String {
            switch payload {
            case .fix(let fix): fix.device
            case .report(let report): report.device
            case .sighting(let device, _): device
            }
        }
    }

    private(set) var monitors: RegionMonitors
    private(set) var regionsVersion: Int64
    private var cursors: [String: Cursor] = [:]

    init(monitors: RegionMonitors, regionsVersion: Int64) {
        self.monitors = monitors
        self.regionsVersion = regionsVersion
    }

    /// Devices among `inputs` this state has no pipeline for.
    func unknownDevices(in inputs: [Input]) -> Set<String> {
        Set(inputs.map(\.device).filter { cursors[$0] == nil })
    }

    /// Starts `device`'s pipeline where the database says it stands.
    mutating func admit(_ device: String, from resume: DeviceResume) {
        cursors[device] = Cursor(pipeline: DevicePipeline(monitors: monitors, savedStates: resume.states), lastSequence: resume.lastSequence)
    }

    /// Forgets every device's pipeline (new regions; or a batch that was not written, whose
    /// devices must resume from the database again).
    mutating func forgetDevices() { cursors.removeAll() }

    /// New regions: every device resumes from the database with them.
    mutating func replaceRegions(_ monitors: RegionMonitors, version: Int64) {
        self.monitors = monitors
        regionsVersion = version
        cursors.removeAll()
    }

    /// Runs `inputs` through their devices' pipelines, in order, with the single daemon's rules
    /// for recording (`DevicePipeline.record`, `LocationEvent.recording`). Inputs at or below a
    /// device's last sequence were applied before (a redelivery): they do not run again. A report
    /// is recorded as its event, as the single daemon records it. Every device must have been admitted.
    mutating func apply(_ inputs: [Input]) -> FleetBatch {
        var batch = FleetBatch()
        for input in inputs {
            let device = input.device
            guard var cursor = cursors[device] else { preconditionFailure("device \(device) not admitted") }
            let payload: FixPayload
            switch input.payload {
            case .fix(let fix):
                payload = fix
            case .report(let report):
                guard input.sequence > cursor.lastSequence else { continue }
                batch.events.append(
                    FleetBatch.StoredEvent(
                        id: "\(device)/\(input.sequence)/0", device: device, time: report.time, kind: report.k, region: report.g,
                        sequence: Int64(input.sequence), record: report.r))
                // Then what it was evidence of, as in the single daemon (`LivePipeline`).
                let evidence = report.event.map { cursor.pipeline.record(reported: $0) }
                cursor.lastSequence = input.sequence
                cursors[device] = cursor
                if let evidence { batch.add(evidence, device: device, sequence: input.sequence, firstIndex: 1) }
                batch.lastSequence[device] = input.sequence
                continue
            case .sighting(_, let advertisement):
                guard input.sequence > cursor.lastSequence else { continue }
                let recorded = cursor.pipeline.record(.advertisement(advertisement))
                cursor.lastSequence = input.sequence
                cursors[device] = cursor
                batch.add(recorded, device: device, sequence: input.sequence)
                continue
            }
            let fix = payload.fix
            let time = Timestamp(nanosecondsSince1970: payload.t)
            // JetStream's moment is the fix's arrival: the same rules as the single daemon's for
            // a device over the network (`DevicePipeline.record`).
            let arrival = Arrival(time: input.queuedAt ?? time, judgesFuture: input.queuedAt != nil)
            guard input.sequence > cursor.lastSequence else {
                // A redelivery: not run again, but its fix stays in the batch, so that history has
                // every fix even if one ever came out of order (storing is idempotent).
                if arrival.keeps(fix) {
                    batch.fixes.append(FleetBatch.StoredFix(device: device, sequence: Int64(input.sequence), fix: fix, time: time, queuedAt: input.queuedAt))
                }
                continue
            }
            let recorded = cursor.pipeline.record(fix: fix, arrival: arrival)
            cursor.lastSequence = input.sequence
            cursors[device] = cursor
            if let kept = recorded.fix {
                batch.fixes.append(
                    FleetBatch.StoredFix(device: device, sequence: Int64(input.sequence), fix: kept, time: kept.time ?? time, queuedAt: input.queuedAt))
            }
            batch.add(recorded, device: device, sequence: input.sequence)
        }
        return batch
    }
}

extension FleetBatch {
    /// What a device's step produced, as the recording policy keeps it (as in the single daemon),
    /// with the states a restart resumes from. An event's id counts every event of the step, kept
    /// or not, so ids stored before the policy moved into the pipeline stay what they were.
    /// `firstIndex` numbers the step's events after those the input stored itself (a report's own).
    fileprivate mutating func add(_ recorded: RecordedStep, device: String, sequence: UInt64, firstIndex: Int = 0) {
        for (offset, event) in recorded.events.enumerated() {
            let index = firstIndex + offset
            guard case .event(let record) = event.recording else { continue }
            events.append(
                StoredEvent(
                    id: "\(device)/\(sequence)/\(index)", device: device, time: record.time, kind: record.kind.rawValue,
                    region: record.region, sequence: Int64(sequence), record: record.record))
        }
        for state in recorded.states { states[device, default: [:]][state.identifier] = state }
        if let established = recorded.regionsEstablished { self.established[device] = established }
        lastSequence[device] = sequence
    }
}
