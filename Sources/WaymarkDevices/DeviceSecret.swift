import Crypto

/// A device's secret: 32 random bytes from the system's cryptographic generator, written as 43
/// base64url characters. It is shown once, when made; the store keeps only its SHA-256, so a
/// copied database gives no way in (docs/devices.md).
///
/// The secret is the bearer token (`Authorization: Bearer SECRET`) and the HTTP Basic password
/// (user: the device's name), which is how OwnTracks, OsmAnd and Traccar clients send it.
public struct DeviceSecret: Sendable, Equatable, CustomStringConvertible {
    /// A SHA-256 digest, 32 bytes.
    public struct Hash: Sendable, Hashable {
        public let bytes: [UInt8]

        public init?(bytes: [UInt8]) {
            guard bytes.count == 32 else { return nil }
            self.bytes = bytes
        }

        /// Compares every byte whatever the first difference: how long it takes says nothing about
        /// how much of a guess was right.
        public func matches(_ other: Hash) -> Bool {
            var difference: UInt8 = 0
            for (a, b) in zip(bytes, other.bytes) { difference |= a ^ b }
            return difference == 0
        }
    }

    /// The secret as the device presents it.
    public let text: String

    public var description: String { text }

    /// Characters of the secret kept as its hint in listings.
    public static let hintLength = 4

    /// A new secret from `SystemRandomNumberGenerator` (getrandom(2) on Linux).
    public static func generate() -> DeviceSecret {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A new secret from `generator` (tests give a seeded one; the daemon never does).
    ///
    /// One in 64 draws would begin with `-`, and pasted after an option (`--secret -Xy…`) such a
    /// secret reads as another option to most command-line parsers (Python's argparse among
    /// them); those draws are discarded, which costs under 0.03 bits of the 256.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> DeviceSecret {
        while true {
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = base64URL(bytes)
            if !text.hasPrefix("-") { return DeviceSecret(text: text) }
        }
    }

    public var hash: Hash { Self.hash(text) }

    public var hint: String { String(text.prefix(Self.hintLength)) }

    /// SHA-256 of the UTF-8 text.
    public static func hash(_ text: String) -> Hash {
        Hash(bytes: Array(SHA256.hash(data: Array(text.utf8))))!
    }

    /// RFC 4648 §5, without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for byte in chunk { value = value << 8 | UInt32(byte) }
            value <<= UInt32(8 * (3 - chunk.count))
            for position in 0...chunk.count { out.append(alphabet[Int(value >> UInt32(18 - 6 * position) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
