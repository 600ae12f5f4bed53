import Testing
@testable import WaymarkAPI

@Suite struct HTTPDateTests {
    @Test func theDateHeaderIsAnIMFFixdate() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")  // RFC 9110's example
        #expect(HTTPDate.format(secondsSince1970: 1_795_564_800) == "Wed, 25 Nov 2026 00:00:00 GMT")
    }
}
