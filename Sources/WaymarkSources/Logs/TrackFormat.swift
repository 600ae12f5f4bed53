#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

/// The kinds of file `waymark replay` and `serve --replay` play, told apart by their content,
/// not their name (receivers' logs are `.log`, `.txt`, `.nmea`, `.ubx` … at random).
public enum TrackFormat: String, Sendable, CaseIterable {
    /// GPX 1.0 or 1.1.
    case gpx
    /// NMEA 0183 sentences.
    case nmea
    /// gpsd's JSON reports (`gpspipe -w`, with or without `-r`).
    case gpsd

    /// How many bytes from the start `detect` looks at.
    static let sniffLength = 65_536

    /// The format of the file at `path`: after blank and `#` lines, `<` starts GPX; a line
    /// starting with `{` within the first 64 KiB makes it a gpsd log (gpspipe's raw NMEA may
    /// come first); otherwise a `$` or `!` line makes it NMEA. GPX when none of these is
    /// found, so the GPX reader names what is wrong with the file.
    public static func detect(path: String) -> TrackFormat {
        guard let file = fopen(path, "r") else { return .gpx }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: sniffLength)
        let count = fread(&bytes, 1, sniffLength, file)
        var sawSentence = false
        var lineStart = true
        var index = 0
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A {
                lineStart = true
            } else if lineStart && byte != 0x20 && byte != 0x09 && byte != 0x0D {
                lineStart = false
                switch byte {
                case UInt8(ascii: "<"): if !sawSentence { return .gpx }
                case UInt8(ascii: "{"): return .gpsd
                case UInt8(ascii: "$"), UInt8(ascii: "!"): sawSentence = true
                default: break
                }
            }
            index += 1
        }
        return sawSentence ? .nmea : .gpx
    }
}
