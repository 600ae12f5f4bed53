import Testing
import WaymarkPower

/// The live GNSS state machine: off while not watched, acquiring until a fix, tracking while
/// fixes come, acquiring again after a report without one.
@Suite struct GNSSReceiverStateTests {
    enum Step: String { case watch, unwatch, fix, noFix }

    @Test(
        arguments: [
            ([Step.fix], [nil]),
            ([.watch, .fix, .fix, .noFix, .fix, .unwatch], [.acquiring, .tracking, nil, .acquiring, .tracking, .off]),
            ([.watch, .watch, .noFix, .unwatch, .noFix, .fix, .watch], [.acquiring, nil, nil, .off, nil, nil, .acquiring]),
        ] as [([Step], [GNSSReceiverState.State?])])
    func transitions(steps: [Step], expected: [GNSSReceiverState.State?]) {
        var receiver = GNSSReceiverState()
        let changes = steps.map { step -> GNSSReceiverState.State? in
            switch step {
            case .watch: receiver.watching(true)
            case .unwatch: receiver.watching(false)
            case .fix: receiver.fix()
            case .noFix: receiver.noFix()
            }
        }
        #expect(changes == expected)
    }
}
