import Foundation
import Testing
import WaymarkCore
@testable import WaymarkDevices

@Suite struct DeviceSecretTests {
    @Test func aSecretIs43Base64URLCharactersOf32RandomBytes() {
        let secret = DeviceSecret.generate()
        #expect(secret.text.count == 43)
        #expect(secret.text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(secret != DeviceSecret.generate())
    }

    /// A generator whose first draws make a secret beginning with `-` (0xF8 → "-"…), then counts up.
    struct LeadingDashFirst: RandomNumberGenerator {
        var calls: UInt64 = 0
        mutating func next() -> UInt64 {
            calls += 1
            return calls <= 32 ? 0xF8F8_F8F8_F8F8_F8F8 : calls
        }
    }

    @Test func noSecretBeginsWithADashSoNoCommandLineTakesItForAnOption() {
        var generator = LeadingDashFirst()
        #expect(DeviceSecret.base64URL([UInt8](repeating: 0xF8, count: 32)).hasPrefix("-"))
        let secret = DeviceSecret.generate(using: &generator)
        #expect(!secret.text.hasPrefix("-"))
        #expect(secret.text.count == 43)
        #expect(generator.calls > 32)
        #expect((0..<2000).allSatisfy { _ in !DeviceSecret.generate().text.hasPrefix("-") })
    }

    @Test(arguments: [
        ([UInt8](), ""), ([0x66], "Zg"), ([0x66, 0x6F], "Zm8"), ([0x66, 0x6F, 0x6F], "Zm9v"),
        ([0xFB, 0xFF, 0xBF], "-_-_"),  // the two characters base64url differs in
    ])
    func base64URLMatchesRFC4648(bytes: [UInt8], expected: String) {
        #expect(DeviceSecret.base64URL(bytes) == expected)
    }

    @Test func theHashIsSHA256OfTheText() {
        // FIPS 180-2's "abc" example.
        let hash = DeviceSecret.hash("abc").bytes.map { String(format: "%02x", $0) }.joined()
        #expect(hash == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hashesMatchOnlyWhenEveryByteDoes() {
        let hash = DeviceSecret.hash("one")
        #expect(hash.matches(DeviceSecret.hash("one")))
        #expect(!hash.matches(DeviceSecret.hash("onf")))
        var bytes = hash.bytes
        bytes[31] ^= 1
        #expect(!hash.matches(DeviceSecret.Hash(bytes: bytes)!))
        #expect(DeviceSecret.Hash(bytes: [1, 2, 3]) == nil)
    }

    @Test func aDeviceAcceptsItsSecretAndNothingElse() {
        let secret = DeviceSecret.generate()
        let device = Device(name: "phone", secretHash: secret.hash, secretHint: secret.hint, createdAt: Timestamp(secondsSince1970: 0))
        #expect(device.accepts(secret.text))
        #expect(!device.accepts(String(secret.text.dropLast())))
        #expect(!device.accepts(""))
        #expect(!Device(name: "local", createdAt: Timestamp(secondsSince1970: 0)).accepts(""))
        #expect(device.user == "phone")
        #expect(secret.hint == String(secret.text.prefix(4)))
    }
}
