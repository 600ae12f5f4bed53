import Testing
import WaymarkOutputs

@Suite struct WebhookSignatureTests {
    @Test func aSignatureVerifiesWithItsSecretOnly() {
        let body = Array(#"{"id":"x"}"#.utf8)
        let header = WebhookSignature.value(body: body, secret: "s3cret", time: 1_700_000_000)
        #expect(header.hasPrefix("t=1700000000,v1="))
        #expect(WebhookSignature.verify(header, body: body, secret: "s3cret"))
        #expect(!WebhookSignature.verify(header, body: body, secret: "other"))
        #expect(!WebhookSignature.verify(header, body: Array(#"{"id":"y"}"#.utf8), secret: "s3cret"))
        #expect(!WebhookSignature.verify("v1=00", body: body, secret: "s3cret"))
    }

    /// The value Python's own HMAC gives: `hmac.new(b"key", b"1.body", hashlib.sha256).hexdigest()`.
    @Test func theCodeIsHMACSHA256OverTimeDotBody() {
        #expect(
            WebhookSignature.hex(body: Array("body".utf8), secret: "key", time: 1)
                == "91b5374b153842ad05b2c4eab9349b8321b14703165bd3fb8b034dfb8be98ae5")
    }

    @Test func backoffGrowsToItsCapWithJitter() {
        let backoff = RetryBackoff(base: 1, cap: 300)
        #expect(backoff.delay(afterFailures: 1, random: 0) == 0.5)
        #expect(backoff.delay(afterFailures: 1, random: 0.999) < 1)
        #expect(backoff.delay(afterFailures: 4, random: 1) == 8)
        #expect(backoff.delay(afterFailures: 40, random: 1) == 300)
        #expect(backoff.delay(afterFailures: 40, random: 0) == 150)
    }
}
