import Testing
import WaymarkCore
import WaymarkRegions

/// Three regions whose identifiers sort differently from their indices:
/// 0 "zeta" = [0,2]², 1 "alpha" = [1,3]², 2 "mid" = [0,3]×[0,1].
private let regions = [
    Region(identifier: "zeta", shape: .polygons([Polygon(exterior: ring([(0, 0), (2, 0), (2, 2), (0, 2)]))])),
    Region(identifier: "alpha", shape: .polygons([Polygon(exterior: ring([(1, 1), (3, 1), (3, 3), (1, 3)]))])),
    Region(identifier: "mid", shape: .polygons([Polygon(exterior: ring([(0, 0), (3, 0), (3, 1), (0, 1)]))])),
]

@Test("the first fix gives the initial state, not transitions")
func initialState() {
    var monitor = RegionMonitor(index: RegionIndex(regions: regions))
    #expect(monitor.process(fix(1.5, 1.5)) == .initial(inside: [0, 1]))
    #expect(monitor.inside == [0, 1])
}

@Test("exits come first, then enters, each in identifier order")
func transitionOrder() {
    var monitor = RegionMonitor(index: RegionIndex(regions: regions))
    _ = monitor.process(fix(5, 5, second: 0))  // outside everything
    guard case .transitions(let entered) = monitor.process(fix(1.5, 0.5, second: 1)) else {
        Issue.record("expected transitions")
        return
    }
    // Inside zeta and mid.
    #expect(entered.map(\.identifier) == ["mid", "zeta"])
    #expect(entered.allSatisfy { $0.kind == .enter })
    #expect(entered.map(\.regionIndex) == [2, 0])
    #expect(entered.first?.fix == fix(1.5, 0.5, second: 1))

    guard case .transitions(let moved) = monitor.process(fix(2.5, 2.5, second: 2)) else {
        Issue.record("expected transitions")
        return
    }
    #expect(moved.map { "\($0.kind.rawValue) \($0.identifier)" } == ["exit mid", "exit zeta", "enter alpha"])
    #expect(monitor.inside == [1])
}

@Test("no transitions while membership is unchanged")
func unchanged() {
    var monitor = RegionMonitor(index: RegionIndex(regions: regions))
    _ = monitor.process(fix(1.5, 1.5, second: 0))
    for s in 1...20 {
        #expect(monitor.process(fix(1.2 + Double(s) * 0.01, 1.5, second: s)) == .transitions([]))
    }
    #expect(monitor.process(fix(50, 50, second: 21)) == .transitions([
        RegionTransition(kind: .exit, regionIndex: 1, identifier: "alpha", fix: fix(50, 50, second: 21)),
        RegionTransition(kind: .exit, regionIndex: 0, identifier: "zeta", fix: fix(50, 50, second: 21)),
    ]))
}
