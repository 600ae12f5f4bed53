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

    /// One fix from the bus, with its stream sequence.
    struct Input: Sendable {
        var sequence: UInt64
        var payload: FixPayload
        /// When JetStream stored it.
        var queuedAt: Timestamp? = nil
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
        Set(inputs.map(\.payload.device).filter { cursors[$0] == nil })
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

    /// Runs `inputs` through their devices' pipelines, in order. Inputs at or below a device's
    /// last sequence were applied before (a redelivery): they do not run again, but their fixes
    /// stay in the batch, so that history has every fix even if one ever came out of order
    /// (storing is idempotent). Every device must have been admitted.
    mutating func apply(_ inputs: [Input]) -> FleetBatch {
        var batch = FleetBatch()
        for input in inputs {
            let device = input.payload.device
            guard var cursor = cursors[device] else { preconditionFailure("device \(device) not admitted") }
            let fix = input.payload.fix
            let time = Timestamp(nanosecondsSince1970: input.payload.t)
            guard input.sequence > cursor.lastSequence else {
                batch.fixes.append(FleetBatch.StoredFix(device: device, sequence: Int64(input.sequence), fix: fix, time: time, queuedAt: input.queuedAt))
                continue
            }
            let step = cursor.pipeline.handle(.fix(fix))
            cursor.lastSequence = input.sequence
            cursors[device] = cursor
            batch.fixes.append(FleetBatch.StoredFix(device: device, sequence: Int64(input.sequence), fix: fix, time: time, queuedAt: input.queuedAt))
            for (index, event) in step.events.enumerated() {
                batch.events.append(
                    FleetBatch.StoredEvent(
                        id: "\(device)/\(input.sequence)/\(index)", device: device, time: event.time ?? time,
                        kind: event.kind.rawValue, region: event.region, sequence: Int64(input.sequence), record: event.record))
            }
            for state in step.states { batch.states[device, default: [:]][state.identifier] = state }
            if let established = step.regionsEstablished { batch.established[device] = established }
            batch.lastSequence[device] = input.sequence
        }
        return batch
    }
}
