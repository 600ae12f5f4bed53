import WaymarkCore
import WaymarkPower

extension ModeSteering {
    /// OwnTracks' `setConfiguration` command for `mode` (booklet, "JSON", `_type=cmd` and
    /// `_type=configuration`). The two apps read different keys: iOS's move mode reports after
    /// `locatorDisplacement` metres or `locatorInterval` seconds; Android's move mode reads
    /// `moveModeLocatorInterval`, and its significant mode is a location request every
    /// `locatorInterval` seconds or `locatorDisplacement` metres. So move sends all three, and
    /// significant puts Android's two back to significant mode's own horizon (500 m / 300 s,
    /// what iOS's significant-change service gives; iOS ignores them in significant mode).
    func setConfiguration(_ mode: PhoneMode) -> String {
        var configuration = JSONObjectWriter()
        configuration.add("_type", "configuration")
        configuration.add("monitoring", mode.ownTracksMonitoring)
        switch mode {
        case .move:
            configuration.add("locatorInterval", modePolicy.moveInterval)
            configuration.add("locatorDisplacement", modePolicy.moveDisplacement)
            configuration.add("moveModeLocatorInterval", modePolicy.moveInterval)
        case .significant:
            configuration.add("locatorInterval", Int(modePolicy.significantInterval))
            configuration.add("locatorDisplacement", Int(modePolicy.significantDistance))
        }
        var command = JSONObjectWriter()
        command.add("_type", "cmd")
        command.add("action", "setConfiguration")
        command.addRaw("configuration", configuration.object)
        return command.object
    }
}
