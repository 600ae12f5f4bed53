extension PhoneProfiles {
    /// The built-in phone, the same as `Profiles/power/phone-*.yaml` (a test keeps them equal),
    /// so the daemon prices phones without a file.
    public static let `default` = PhoneProfiles(checked: .phoneGNSS, wifi: .phoneWiFi, cellular: .phoneLTE)
}

extension PowerProfile {
    /// `Profiles/power/phone-gnss.yaml`.
    public static let phoneGNSS = PowerProfile(
        name: "phone-gnss", radio: .gnss, description: "phone-class GNSS chipset",
        states: [
            "off": PowerState(current: 0, voltage: 3.8, source: "off"),
            "acquiring": PowerState(current: 76 / 1000, voltage: 3.8, source: "Android power profiles, gps.on upper figure 76 mA (docs/semantics.md §4)"),
            "tracking": PowerState(current: 50 / 1000, voltage: 3.8, source: "Android power profiles, gps.on 30–76 mA, middle of the range (docs/semantics.md §4)"),
            "powerSave": PowerState(current: 30 / 1000, voltage: 3.8, source: "Android power profiles, gps.on lower figure 30 mA (docs/semantics.md §4)"),
        ],
        startTimes: ["cold": 30, "warm": 20, "hot": 2])

    /// `Profiles/power/phone-wifi.yaml`.
    public static let phoneWiFi = PowerProfile(
        name: "phone-wifi", radio: .wifi, description: "a phone's Wi-Fi, for small tracking reports and network fixes",
        states: [
            "off": PowerState(current: 0, voltage: 3.8, source: "no traffic for the tracking app: the radio's own idle is not its cost"),
            "idle": PowerState(current: 2 / 1000, voltage: 3.8, source: "associated, idle: Android power profiles' wifi.on, a few mA"),
            "scanning": PowerState(current: 120 / 1000, voltage: 3.8, source: "Android power profiles' wifi.scan, 75–166 mA across devices, middle of the range"),
            "active": PowerState(current: 35 / 1000, voltage: 3.8, source: "Huang et al. MobiSys 2012, Wi-Fi base power 132.86 mW (a report's few hundred bytes add next to nothing)"),
            "tail": PowerState(current: 31 / 1000, voltage: 3.8, source: "Huang et al. MobiSys 2012, Wi-Fi tail 119.3 mW"),
        ],
        startTimes: [PhoneProfiles.networkFixKey: 1.5],
        transfer: TransferTiming(promotionSeconds: 0.08, tailSeconds: 0.24, bytesPerSecond: 10000 * 1000 / 8))

    /// `Profiles/power/phone-lte.yaml`.
    public static let phoneLTE = PowerProfile(
        name: "phone-lte", radio: .cellular, description: "a phone's LTE modem, for small tracking reports",
        states: [
            "off": PowerState(current: 0, voltage: 3.8, source: "RRC idle, camped: paid by the phone whether or not it tracks"),
            "idle": PowerState(current: 3 / 1000, voltage: 3.8, source: "RRC idle with paging, about 11 mW on average (Huang et al. MobiSys 2012)"),
            "active": PowerState(current: 339 / 1000, voltage: 3.8, source: "Huang et al. MobiSys 2012, LTE base power while sending 1288 mW (promotion 1211 mW)"),
            "tail": PowerState(current: 279 / 1000, voltage: 3.8, source: "Huang et al. MobiSys 2012, LTE tail (connected, DRX) 1060 mW"),
        ],
        transfer: TransferTiming(promotionSeconds: 0.26, tailSeconds: 11.6, bytesPerSecond: 6000 * 1000 / 8))
}
