import Foundation
import GramgenCore

/// `gramgen import instagram`: turns an Instagram data export into one user of the site.
/// Stages: open (unzip) → locate files → read JSON → sync the profile → sync each post →
/// record what was written in the manifest. Re-running updates, never duplicates, and never
/// overwrites a file the user has edited since.
public struct InstagramImporter {
    /// What to import where; the CLI's arguments.
    public struct Options: Sendable {
        /// The site folder (holding content/).
        public var siteRoot: URL
        /// The export: a folder or a .zip.
        public var export: URL
        /// `--stories`: import stories as posts tagged `stories`.
        public var includeStories = false
        /// The other parts of an export split into several files, with their names as typed.
        public var moreParts: [(url: URL, name: String)] = []
        /// The export path as the user wrote it, for messages.
        public var exportName: String
        /// `--handle`; by default the export's username.
        public var handle: String?
        /// `--dry-run`: report what would be written, and write nothing.
        public var dryRun = false
        /// The `unzip` program for .zip exports; tests point it elsewhere to simulate its absence.
        public var unzipPath = ExportOpener.defaultUnzipPath()

        /// `exportName` is the export path as the user typed it, used in every message.
        public init(siteRoot: URL, export: URL, exportName: String, handle: String? = nil, dryRun: Bool = false) {
            self.siteRoot = siteRoot
            self.export = export
            self.exportName = exportName
            self.handle = handle
            self.dryRun = dryRun
        }
    }

    public let options: Options

    /// Nothing is read until `run()`.
    public init(options: Options) {
        self.options = options
    }

    /// Imports the export; throws an `ImportError` naming the file when the export or the site
    /// cannot be used. Skipped files and kept edits are not errors: they are in the report.
    public func run() throws -> ImportReport {
        guard ExportLayout.isDirectory(options.siteRoot.appendingPathComponent("content")) else {
            throw ImportError.noContentFolder(site: options.siteRoot.path)
        }
        let opener = ExportOpener(unzipPath: options.unzipPath)
        defer { opener.close() }
        let folder = try opener.open(parts: [(options.export, options.exportName)] + options.moreParts)
        let layout = try ExportLayout.locate(in: folder, name: options.exportName)
        let export = try ExportReader(layout: layout).read()
        let handle = try resolveHandle(export)

        let userFolder = "content/users/\(handle)"
        let writer = SiteWriter(siteRoot: options.siteRoot, dryRun: options.dryRun)
        let loaded = try ImportManifest.load(from: writer.url(userFolder), displayPath: "\(userFolder)/\(ImportManifest.fileName)")
        var manifest = loaded
        var report = ImportReport(handle: handle, userFolder: userFolder, dryRun: options.dryRun,
                                  profilePath: "\(userFolder)/profile.md")
        let sorter = MediaSorter(exportRoot: export.root, maxMedia: SiteLimits.maxImagesPerPost(siteRoot: options.siteRoot))

        try ProfileSync(writer: writer, sorter: sorter, userFolder: userFolder, handle: handle)
            .sync(export, manifest: &manifest, report: &report)
        try PostSync(writer: writer, sorter: sorter, userFolder: userFolder)
            .sync(export.posts + (options.includeStories ? export.stories : []), manifest: &manifest, report: &report)
        if !options.includeStories && !export.stories.isEmpty {
            report.notImported.append(.init(kind: "story", count: export.stories.count,
                                            why: "add --stories to import them as posts tagged #stories"))
        }
        let conversations = ExportLayout.conversations(in: export.root).union(opener.zippedConversations).count
        if conversations > 0 {
            report.notImported.append(.init(kind: "conversation", count: conversations,
                                            why: "direct messages are private: gramgen never reads or publishes them"))
        }
        report.notImported += Self.reactions(export.commentedOwners, kind: "comment", users: writer.siteUsers().union([handle]))
        report.notImported += Self.reactions(export.likedOwners, kind: "like", users: writer.siteUsers().union([handle]))
        manifest.version = ImportManifest().version
        if manifest != loaded {
            try writer.write(manifest.encoded(), to: "\(userFolder)/\(ImportManifest.fileName)")
        }
        report.written = writer.written
        return report
    }

    /// Comments and likes the owner gave, counted in two groups: on posts of the site's users
    /// (which could be placed, if the export said which post: it never does, only whose) and on
    /// posts of everyone else (whose posts are not on the site).
    static func reactions(_ owners: [String?], kind: String, users: Set<String>) -> [ImportReport.NotImported] {
        let onSite = owners.filter { $0.map(users.contains) ?? false }
        let onSiteNames = Set(onSite.compactMap { $0 }).sorted().joined(separator: ", ")
        var result: [ImportReport.NotImported] = []
        if !onSite.isEmpty {
            result.append(.init(kind: kind, count: onSite.count,
                                why: "on posts by users of this site (\(onSiteNames)); the export says whose post, never which one, "
                                    + "so gramgen cannot place them: add them to that post's post.md by hand"))
        }
        if owners.count > onSite.count {
            result.append(.init(kind: kind, count: owners.count - onSite.count,
                                why: "on posts by accounts that are not users of this site"))
        }
        return result
    }

    private func resolveHandle(_ export: InstagramExport) throws -> String {
        if let handle = options.handle {
            if let problem = Handle.problem(with: handle) {
                throw ImportError.badHandle(handle: handle, problem: problem, source: "--handle")
            }
            return handle
        }
        guard let username = export.profile.username else { throw ImportError.noUsername(export: options.exportName) }
        if let problem = Handle.problem(with: username) {
            throw ImportError.badHandle(handle: username, problem: problem, source: "the export's username")
        }
        return username
    }
}
