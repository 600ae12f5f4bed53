/// The HCI command packets a raw-socket scanner sends (Bluetooth Core, Vol 4 Part E §7.8.10–11):
/// H4 indicator `01`, opcode (OGF 0x08 LE controller << 10 | OCF, little-endian), parameter
/// length, parameters.
public enum HCICommand {
    /// LE Set Scan Parameters: scan type, interval and window (0.625 ms units, little-endian),
    /// own address type (public), filter policy (accept all).
    public static func setScanParameters(_ scan: ScanParameters) -> [UInt8] {
        let interval = scan.intervalUnits
        let window = scan.windowUnits
        return packet(ocf: 0x000B, [
            scan.active ? 0x01 : 0x00, UInt8(interval & 0xFF), UInt8(interval >> 8), UInt8(window & 0xFF),
            UInt8(window >> 8), 0x00, 0x00,
        ])
    }

    /// LE Set Scan Enable, without duplicate filtering: ranging needs every advertisement's RSSI.
    public static func setScanEnable(_ enable: Bool) -> [UInt8] {
        packet(ocf: 0x000C, [enable ? 0x01 : 0x00, 0x00])
    }

    private static func packet(ocf: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        let opcode = UInt16(0x08) << 10 | ocf
        return [0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
    }
}
