import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices

/// The devices of one partition that a worker owns: each device's pipeline and the last
/// stream sequence it applied. Pure: fixes in, a `FleetBatch` out; the worker loads devices it
/// has not seen (`admit`) and writes the batches.
struct PartitionState: Sendable {
    struct Cursor: Sendable {
        var pipeline: DevicePipeline
        var lastSequence: UInt64
    }

    /// One fix, or one report of a device about itself, from the bus, with its stream sequence.
    struct Input: Sendable {
        enum Payload: Sendable {
            case fix(FixPayload)
            case report(ReportPayload)
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

    /// Runs `inputs` through their devices' pipelines, in order. Inputs at or below a device's
    /// last sequence were applied before (a redelivery): they do not run again, but their fixes
    /// stay in the batch, so that history has every fix even if one ever came out of order
    /// (storing is idempotent). A report is recorded as its event, as the single daemon records
    /// it. Every device must have been admitted.
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
                cursor.lastSequence = input.sequence
                cursors[device] = cursor
                batch.lastSequence[device] = input.sequence
                continue
            }
            let fix = payload.fix
            let time = Timestamp(nanosecondsSince1970: payload.t)
            // A fix from the future (its time past the moment the bus took it, plus the gate's
            // tolerance) is neither run nor stored, as the single daemon drops it: one fix dated
            // 2200 would otherwise make every later fix of the device go backwards.
            if let queuedAt = input.queuedAt, ValidationGate.isFromFuture(time, receivedAt: queuedAt) {
                if input.sequence > cursor.lastSequence {
                    _ = cursor.pipeline.handle(.fix(fix), receivedAt: queuedAt)  // counted by the gates
                    cursor.lastSequence = input.sequence
                    cursors[device] = cursor
                    batch.lastSequence[device] = input.sequence
                }
                continue
            }
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
