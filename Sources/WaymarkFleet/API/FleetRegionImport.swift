import Logging
import WaymarkRegions
import WaymarkStore

/// `POST /v1/regions` on an api node: the single daemon's rules, then the fleet's import.
/// The regions are validated by the single daemon's store (a scratch one: identifiers,
/// coordinates, rings, polygon validity), an identifier already in the fleet is refused unless
/// `replace`, and the accepted regions go in as `fleet import` puts them: one transaction that
/// bumps the regions version and notifies the workers and ingest nodes (docs/fleet.md).
enum FleetRegionImport {
    static func run(_ regions: [Region], replace: Bool, database: FleetDatabase, logger: Logger) async throws -> ImportReport {
        try await ScratchStore.with(logger: logger) { scratch in
            _ = try await scratch.store.offPool { try $0.importRegions(regions, replace: false) }
        }
        let stored = Set(try await database.regions().regions.map(\.identifier))
        let existing = regions.map(\.identifier).filter(stored.contains)
        if !replace && !existing.isEmpty {
            throw StoreError(
                code: .duplicateIdentifier,
                message: "these regions exist already (import with replace to overwrite them): \(existing.joined(separator: ", "))",
                identifiers: existing)
        }
        try await database.importRegions(regions)
        return ImportReport(inserted: regions.map(\.identifier).filter { !stored.contains($0) }, replaced: existing)
    }
}
