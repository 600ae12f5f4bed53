import Testing
import WaymarkHandlers

/// `finished` as handlers send it; a bad one is an error the daemon answers, not a crash.
@Suite struct HandlerRequestTests {
    @Test(arguments: [
        (#"{"type":"finished"}"#, HandlerRequest.finished(useful: nil, through: nil)),
        (#"{"type":"finished","useful":true}"#, .finished(useful: true, through: nil)),
        (#"{"type":"finished","useful":false,"through":42}"#, .finished(useful: false, through: 42)),
        (#"{"type":"finished","useful":null,"through":null}"#, .finished(useful: nil, through: nil)),
        (#"{"type":"finished","useful":"yes"}"#, .invalid(#"finished: "useful" must be true or false"#)),
        (#"{"type":"finished","through":-1}"#, .invalid(#"finished: "through" must be an event id"#)),
        (#"{"type":"finished","through":"7"}"#, .invalid(#"finished: "through" must be an event id"#)),
    ])
    func finishedParses(line: String, expected: HandlerRequest) {
        #expect(HandlerRequest.parse(line) == expected)
    }

    /// A query names its device, `local` when it names none; a device that is not a name is refused.
    @Test(arguments: [
        (#"{"type":"regionState","region":"hut","request":"1"}"#, HandlerRequest.regionState(region: "hut", device: "local", request: "1")),
        (#"{"type":"regionState","region":"hut","device":"phone"}"#, .regionState(region: "hut", device: "phone", request: nil)),
        (#"{"type":"regionState","region":"hut","device":null}"#, .regionState(region: "hut", device: "local", request: nil)),
        (#"{"type":"regionState","region":"hut","device":""}"#, .invalid(#"regionState: "device" must be a device name"#)),
        (#"{"type":"regionState","region":"hut","device":7}"#, .invalid(#"regionState: "device" must be a device name"#)),
        (#"{"type":"lastLocation"}"#, .lastLocation(device: "local", request: nil)),
        (#"{"type":"lastLocation","device":"tracker","request":"r"}"#, .lastLocation(device: "tracker", request: "r")),
        (#"{"type":"lastLocation","device":["phone"]}"#, .invalid(#"lastLocation: "device" must be a device name"#)),
    ])
    func queriesNameTheirDevice(line: String, expected: HandlerRequest) {
        #expect(HandlerRequest.parse(line) == expected)
    }
}
