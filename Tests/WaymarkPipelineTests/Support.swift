import Foundation
import WaymarkCore
import WaymarkGeoJSON
import WaymarkPipeline
import WaymarkRegions
import WaymarkSources
import WaymarkTestSupport

/// Every point of a GPX file, in document order.
func fixes(ofGPX path: String) throws -> [Fix] {
    var source = try GPXFixSource(path: path)
    var fixes: [Fix] = []
    while let fix = try source.next() { fixes.append(fix) }
    return fixes
}

/// The project's sample ride and the regions drawn around it.
func lakesideRide() throws -> (fixes: [Fix], regions: [Region]) {
    let root = ProjectPaths.repositoryRoot
    let fixes = try fixes(ofGPX: root.appendingPathComponent("Tracks/lakeside-ride.gpx").path)
    let regions = try GeoJSONRegionLoader.load(paths: [root.appendingPathComponent("Regions").path])
    return (fixes, regions)
}

/// Runs `inputs` through `pipeline`, then finishes it; every event in order.
func run(_ pipeline: inout DevicePipeline, _ inputs: [PipelineInput], finish: Bool = true) -> [LocationEvent] {
    var events: [LocationEvent] = []
    for input in inputs { events += pipeline.handle(input).events }
    if finish { events += pipeline.finish() }
    return events
}
