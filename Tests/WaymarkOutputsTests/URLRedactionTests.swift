import Testing
import WaymarkOutputs

@Suite struct URLRedactionTests {
    @Test(arguments: [
        ("https://hub.example/waymark", "https://hub.example/waymark"),
        ("https://user:pass@hub.example/waymark", "https://user:***@hub.example/waymark"),
        ("https://user:p:a@ss@hub.example:8443/w?x=1", "https://user:***@hub.example:8443/w?x=1"),
        ("https://user@hub.example/w", "https://user@hub.example/w"),
        ("https://hub.example/w?token=abc&x=1", "https://hub.example/w?token=***&x=1"),
        ("https://hub.example/w?access_token=a&API-KEY=b&apikey=c&Secret=d&password=e&key=f&sig=g",
         "https://hub.example/w?access_token=***&API-KEY=***&apikey=***&Secret=***&password=***&key=***&sig=***"),
        ("https://hub.example/w?X-Subscription-Key=k&client_secret=s&auth=a", "https://hub.example/w?X-Subscription-Key=***&client_secret=***&auth=***"),
        ("https://hub.example/w?device=phone&token=&hotkey=x", "https://hub.example/w?device=phone&token=&hotkey=***"),
        ("https://hub.example/w?token&a=b#token=frag", "https://hub.example/w?token&a=b#token=frag"),
        ("https://u:p@hub.example?token=t", "https://u:***@hub.example?token=***"),
        ("http://[::1]:9000/hook?key=k", "http://[::1]:9000/hook?key=***"),
        ("mqtt://waymark:pa:ss@broker.lan:8883/home/{device}/{kind}", "mqtt://waymark:***@broker.lan:8883/home/{device}/{kind}"),
        ("not a url", "not a url"),
    ])
    func credentialsInAURLAreMasked(url: String, shown: String) {
        #expect(URLRedaction.redacted(url) == shown)
    }
}
