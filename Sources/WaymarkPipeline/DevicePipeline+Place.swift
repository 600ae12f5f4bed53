import WaymarkCore
import WaymarkRegions

extension DevicePipeline {
    /// The place as the monitor's states have it, with no event (a restore derives it so).
    func derivedPlace() -> String? { places.place(among: regionMonitor.inside).map { regionMonitor.index.identifier(at: Int($0)) } }

    /// After the region monitor's update of an admitted fix: a `place` event when the place
    /// changed. Only establishing states and confirmed entries and exits move it (dwells and
    /// inferred crossings leave the state as it was), so steady state costs nothing. The first
    /// establishment reports a place only if there is one: nothing is the place before it.
    ///
    /// The change is dated and placed like the last confirmed entry or exit of the update (its
    /// crossing, with its `confirmedAt`), so in time order it follows that transition; without
    /// one (an establishment, new regions), at the fix.
    mutating func updatePlace(after update: RegionUpdate, of fix: Fix, into step: inout Step) {
        let moved = update.transitions.last { !$0.crossed && $0.kind != .dwell }
        guard placeStale || update.establishedInside != nil || moved != nil else { return }
        let previous = place
        placeStale = false
        place = derivedPlace()
        guard place != previous else { return }
        step.events.append(.place(fix: moved?.fix ?? fix, place: place, previous: previous, confirmedAt: moved?.confirmedAt))
    }
}
