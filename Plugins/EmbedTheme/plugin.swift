import Foundation
import PackagePlugin

/// Builds the default theme (the repository's `templates/`) into the binary, so gramgen runs from any folder.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "templates")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []
        let inputs = files.filter { !$0.hasPrefix(".") }.sorted().map { templates.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "DefaultTheme.swift")
        return [
            .buildCommand(
                displayName: "Embedding the default theme",
                executable: try context.tool(named: "ThemeEmbedder").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
