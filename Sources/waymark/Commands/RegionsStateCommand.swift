import ArgumentParser
import Foundation
import WaymarkAPI

extension RegionsCommand {
    struct State: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A region's state: inside, outside or unknown, and since when (JSON).",
            discussion: """
                Asks the running daemon when one answers (its live state), else reads the state the \
                daemon saved in the database. Unknown: no fix since the region was registered or \
                reshaped. Exit status 1 when there is no such region.
                """)

        @Argument(help: "The region's identifier.")
        var identifier: String

        @OptionGroup var store: StoreOptions

        func run() throws {
            if let client = try store.daemon() {
                let path = "/v1/regions/" + (identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? identifier) + "/state"
                print(try RegionsCommand.call(client, "GET", path))
                return
            }
            let database = try store.open()
            guard try database.region(identifier: identifier) != nil else {
                throw CommandError("no region '\(identifier)' in \(database.path ?? "the database")")
            }
            let saved = try database.regionState(identifier: identifier)
            let info = RegionStateInfo(
                identifier: identifier, state: saved.map { $0.inside ? "inside" : "outside" } ?? "unknown", since: saved?.since)
            print(info.json)
        }
    }
}
