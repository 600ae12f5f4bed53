import Foundation
import PackagePlugin

/// Embeds the web page's files (`Web/` in the target's folder: HTML, CSS, JavaScript) into the
/// binary as `WebAssets.swift`, so `waymark serve` needs nothing beside it to serve `/` and no
/// user runs a build step (issue 20). The files stay plain files to edit; the build regenerates
/// the Swift source whenever one changes.
@main
struct EmbedWebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let web = target.directoryURL.appending(path: "Web")
        let names = try FileManager.default.contentsOfDirectory(atPath: web.path()).filter { !$0.hasPrefix(".") }.sorted()
        let inputs = names.map { web.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) web files",
                executable: try context.tool(named: "WaymarkEmbed").url,
                arguments: [output.path()] + inputs.map { $0.path() },
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
