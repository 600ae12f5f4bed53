import Foundation
import WaymarkPower

/// Which radio the machine's traffic leaves by (`power.network: auto`): the interface of the
/// default route (`/proc/net/route`, lowest metric), then what sysfs says it is — `wireless` or
/// `phy80211` under `/sys/class/net/IFACE` is Wi-Fi; `DEVTYPE=wwan` in its `uevent`, or a `wwan*`
/// or `ppp*` name, is a cellular modem; anything else (Ethernet, a bridge, no default route) is
/// no radio. Read once at start; a daemon whose route moves is restarted or configured.
enum DefaultRouteRadio {
    static func detect(proc: String = "/proc", sys: String = "/sys") -> Radio? {
        guard let routes = try? String(contentsOfFile: proc + "/net/route", encoding: .utf8),
            let interface = defaultInterface(routes: routes)
        else { return nil }
        return radio(of: interface, sys: sys)
    }

    /// The interface of the default route (destination and mask 0) with the lowest metric.
    static func defaultInterface(routes: String) -> String? {
        var best: (interface: String, metric: Int)? = nil
        for line in routes.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                let flags = Int(fields[3], radix: 16), flags & 0x1 != 0,  // RTF_UP
                let metric = Int(fields[6])
            else { continue }
            if best == nil || metric < best!.metric { best = (String(fields[0]), metric) }
        }
        return best?.interface
    }

    static func radio(of interface: String, sys: String) -> Radio? {
        let base = sys + "/class/net/" + interface
        let files = FileManager.default
        if files.fileExists(atPath: base + "/wireless") || files.fileExists(atPath: base + "/phy80211") { return .wifi }
        let uevent = (try? String(contentsOfFile: base + "/uevent", encoding: .utf8)) ?? ""
        if uevent.split(separator: "\n").contains("DEVTYPE=wwan") { return .cellular }
        if interface.hasPrefix("wwan") || interface.hasPrefix("ppp") { return .cellular }
        return nil
    }
}
