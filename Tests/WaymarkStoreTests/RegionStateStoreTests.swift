import Foundation
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// Monitoring options and saved region states in the store.
@Suite struct RegionStateStoreTests {
    @Test func optionsRoundTripThroughTheProperties() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        var hut = Sample.eiffel
        hut.propertiesJSON = #"{"radius":120,"notifyOnEntry":false,"loiteringDelay":300,"hysteresis":15,"confirmationTime":5,"initialTrigger":true}"#
        hut.options = RegionOptions(notifyOnEntry: false, loiteringDelay: 300, hysteresis: 15, confirmationTime: 5, initialTrigger: true)
        try store.importRegions([hut, Sample.islands], replace: false)
        #expect(try store.region(identifier: hut.identifier) == hut)
        #expect(try store.region(identifier: "islands")?.options == RegionOptions())
    }

    @Test func statesAreSavedReplacedAndDroppedWithTheRegionOrANewShape() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        let t0 = Timestamp(nanosecondsSince1970: 1_000_000_000_000)
        try store.saveRegionStates([
            SavedRegionState(identifier: "eiffel", inside: true, since: t0),
            SavedRegionState(identifier: "islands", inside: false, since: nil),
            SavedRegionState(identifier: "atlantis", inside: true, since: t0),  // no such region: skipped
        ], at: t0)
        #expect(try store.regionStates().map(\.identifier) == ["eiffel", "islands"])
        try store.saveRegionStates([SavedRegionState(identifier: "eiffel", inside: true, since: t0, dwelled: true)], at: t0)
        #expect(try store.regionState(identifier: "eiffel") == SavedRegionState(identifier: "eiffel", inside: true, since: t0, dwelled: true))
        // Re-importing the same shape keeps the state; a new shape drops it.
        try store.importRegions([Sample.eiffel], replace: true)
        #expect(try store.regionState(identifier: "eiffel") != nil)
        var moved = Sample.eiffel
        if case .circle(let center, _) = moved.shape { moved.shape = .circle(center: center, radius: 999) }
        try store.importRegions([moved], replace: true)
        #expect(try store.regionState(identifier: "eiffel") == nil)
        // Removing a region removes its state.
        #expect(try store.removeRegion(identifier: "islands"))
        #expect(try store.regionStates().isEmpty)
    }

    @Test func theEstablishedMomentCoversRegionsImportedBeforeIt() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let past = Timestamp(secondsSince1970: 1_700_000_000)
        try store.importRegions([Sample.eiffel, Sample.islands], replace: false, importedAt: past)
        let t0 = Timestamp(secondsSince1970: 1_700_000_100)
        try store.saveRegionsEstablished(EstablishedRegions(since: t0), device: "phone")
        try store.saveRegionStates([SavedRegionState(identifier: "eiffel", inside: true, since: t0)], at: t0, device: "phone")
        // Imported after the moment was written: not covered.
        try store.importRegions([Sample.parkWithPond], replace: false, importedAt: Timestamp(secondsSince1970: Date().timeIntervalSince1970 + 3600))
        let saved = try store.savedRegionStates(device: "phone")
        #expect(saved.states == [SavedRegionState(identifier: "eiffel", inside: true, since: t0)])
        #expect(saved.established == EstablishedRegions(since: t0, excluding: [Sample.parkWithPond.identifier]))
        #expect(try store.regionState(identifier: "islands", device: "phone") == SavedRegionState(identifier: "islands", inside: false, since: t0))
        #expect(try store.regionState(identifier: Sample.parkWithPond.identifier, device: "phone") == nil)
        #expect(try store.regionState(identifier: "islands", device: "local") == nil, "another device established nothing")
        #expect(try store.savedRegionStates(device: "local") == SavedRegionStates([], established: nil))
    }
}
