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
}
