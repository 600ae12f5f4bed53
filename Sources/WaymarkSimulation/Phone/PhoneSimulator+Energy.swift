import WaymarkCore
import WaymarkPower

extension PhoneSimulator {
    /// What the run so far cost the phone, priced by the same `PhoneEnergyModel` the daemon
    /// prices real phones with: its modes over time and every upload (bytes up and down), over
    /// the connection it reports (`conn`), closed at the last second played.
    public func energy(profiles: PhoneProfiles = .default) -> PhoneEnergyEstimate {
        var model = PhoneEnergyModel(profiles: profiles)
        let connectivity = PhoneConnectivity(ownTracksConn: settings.connection) ?? .mobile
        var changes = account.modeChanges[...]
        // The starting mode holds from the first second, before the first report.
        if let start = changes.popFirst() { model.setMode(start.mode, at: start.time) }
        // Uploads and mode changes in time order; at the same second the upload goes first (a
        // command arrives in the reply to it).
        for upload in account.uploads {
            while let change = changes.first, change.time < upload.time {
                model.setMode(change.mode, at: change.time)
                changes.removeFirst()
            }
            model.report(at: upload.time, bytesSent: upload.bytesSent, bytesReceived: upload.bytesReceived, connectivity: connectivity)
        }
        for change in changes { model.setMode(change.mode, at: change.time) }
        return model.estimate(closingAt: playedUntil ?? Timestamp(nanosecondsSince1970: 0))
    }
}
