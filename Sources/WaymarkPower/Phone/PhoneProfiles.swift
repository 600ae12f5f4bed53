/// What a phone draws for its tracking, one profile per radio (`Profiles/power/phone-gnss.yaml`,
/// `phone-wifi.yaml`, `phone-lte.yaml`, each figure with its source in the file): the GNSS while
/// tracking in move mode; the Wi-Fi scan behind a network fix in significant mode; the Wi-Fi and
/// LTE radios' states and tail timing for each report.
public struct PhoneProfiles: Sendable, Equatable {
    /// The file names `load(directory:)` reads.
    public static let fileNames = (gnss: "phone-gnss.yaml", wifi: "phone-wifi.yaml", cellular: "phone-lte.yaml")
    /// The Wi-Fi profile's `start_seconds` key for a network fix's scan.
    public static let networkFixKey = "network_fix"

    /// Priced `tracking` for every second in move mode.
    public var gnss: PowerProfile
    /// Prices reports over Wi-Fi (its transfer timing) and network fixes (`scanning` for
    /// `start_seconds.network_fix` seconds each).
    public var wifi: PowerProfile
    /// Prices reports over mobile data (its transfer timing).
    public var cellular: PowerProfile

    /// Checks that each profile is of its radio and has what the model prices.
    public init(gnss: PowerProfile, wifi: PowerProfile, cellular: PowerProfile) throws(PowerProfileError) {
        for (profile, radio) in [(gnss, Radio.gnss), (wifi, .wifi), (cellular, .cellular)] where profile.radio != radio {
            throw PowerProfileError(
                file: profile.name, key: "radio", message: "the phone's \(radio.rawValue) profile is for the \(profile.radio.rawValue) radio")
        }
        for profile in [gnss, wifi, cellular] {
            for state in PowerProfile.requiredStates(of: profile.radio) where profile.states[state] == nil {
                throw PowerProfileError(file: profile.name, key: "states.\(state)", message: "missing")
            }
            if profile.radio.isNetwork && profile.transfer == nil {
                throw PowerProfileError(file: profile.name, key: "transfer", message: "missing: the tail model needs it")
            }
        }
        guard let seconds = wifi.startTimes[Self.networkFixKey], seconds >= 0 else {
            throw PowerProfileError(
                file: wifi.name, key: "start_seconds.\(Self.networkFixKey)",
                message: "missing: the phone's Wi-Fi profile says how long the scan behind a network fix takes")
        }
        self.init(checked: gnss, wifi: wifi, cellular: cellular)
    }

    /// Profiles already known to fit (the built-in ones).
    init(checked gnss: PowerProfile, wifi: PowerProfile, cellular: PowerProfile) {
        self.gnss = gnss
        self.wifi = wifi
        self.cellular = cellular
    }

    /// The profiles' names, recorded with every estimate (`phone-gnss + phone-wifi + phone-lte`).
    public var name: String { [gnss.name, wifi.name, cellular.name].joined(separator: " + ") }

    /// Seconds of Wi-Fi `scanning` behind one network fix.
    public var networkFixSeconds: Double { wifi.startTimes[Self.networkFixKey] ?? 0 }

    /// GNSS watts while tracking (move mode).
    var trackingWatts: Double { gnss.states["tracking"]?.power ?? 0 }

    /// Wi-Fi watts while scanning (a network fix).
    var scanningWatts: Double { wifi.states["scanning"]?.power ?? 0 }
}

extension PhoneProfiles {
    /// Reads the three phone profiles from `directory` (`fileNames`); an error names the file,
    /// line and key at fault.
    public static func load(directory: String) throws(PowerProfileError) -> PhoneProfiles {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let gnss = try PowerProfile.load(file: base + fileNames.gnss)
        let wifi = try PowerProfile.load(file: base + fileNames.wifi)
        let cellular = try PowerProfile.load(file: base + fileNames.cellular)
        do {
            return try PhoneProfiles(gnss: gnss, wifi: wifi, cellular: cellular)
        } catch {
            // The check names the profile at fault; locate it in its file.
            var located = error
            let files = Dictionary(
                [(gnss.name, fileNames.gnss), (cellular.name, fileNames.cellular), (wifi.name, fileNames.wifi)], uniquingKeysWith: { first, _ in first })
            located.file = base + (files[error.file] ?? fileNames.wifi)
            throw located
        }
    }
}
