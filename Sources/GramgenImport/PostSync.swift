import Foundation
import GramgenCore

/// Writes one post folder per export post, oldest first. A post keeps the folder the manifest
/// gave it; a post.md whose hash still matches the manifest is the import's own and may be
/// updated, any other is the user's and is kept.
struct PostSync {
    let writer: SiteWriter
    let sorter: MediaSorter
    let userFolder: String

    func sync(_ posts: [ExportPost], manifest: inout ImportManifest, report: inout ImportReport) throws {
        let postsFolder = "\(userFolder)/posts"
        var namer = FolderNamer(existing: ExportLayout.visibleEntries(of: writer.url(postsFolder))
            + manifest.posts.values.map(\.folder))
        var seen = Set<String>()
        let ordered = posts.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
        for post in ordered.map(\.element) {
            let day = ExportDate.day(post.timestamp)
            let (media, skipped) = sorter.sort(post.media)
            guard !media.isEmpty else {
                if seen.insert(post.key).inserted {
                    report.postsWithoutMedia.append(day)
                    report.skippedFiles += skipped.map { .init(uri: $0.uri, reason: $0.reason, postDay: day, postFolder: nil) }
                }
                continue
            }
            let identity = Self.identity(of: post, first: media[0])
            guard seen.insert(identity).inserted else { continue }
            // A post imported by an older version is found under its old key and moved over.
            if manifest.posts[identity] == nil, let old = manifest.posts.removeValue(forKey: post.key) {
                manifest.posts[identity] = old
            }
            let folder = manifest.posts[identity]?.folder ?? namer.name(timestamp: post.timestamp, caption: post.caption)
            let folderPath = "\(postsFolder)/\(folder)"
            report.skippedFiles += skipped.map { .init(uri: $0.uri, reason: $0.reason, postDay: day, postFolder: folderPath) }
            let text = PostMarkdown(
                timestamp: post.timestamp, images: media.map { .init(file: $0.name, alt: $0.alt) },
                caption: post.caption, isDraft: post.isArchived, tags: post.isStory ? ["stories"] : []).text
            let outcome = try write(text, media: media, to: folderPath, record: manifest.posts[identity])
            if outcome != .keptEdits {
                manifest.posts[identity] = .init(folder: folder, hash: ImportManifest.hash(text))
            } else if manifest.posts[identity] == nil {
                manifest.posts[identity] = .init(folder: folder, hash: "")
            }
            let videos = media.filter(\.isVideo).count
            report.posts.append(.init(folder: folderPath, outcome: outcome, photoCount: media.count - videos, videoCount: videos,
                                      isDraft: post.isArchived, isReel: post.isReel, isStory: post.isStory))
        }
    }

    /// What identifies a post in every export shape: its first photo or video's own date and the
    /// hash of its bytes. The post's date and the media paths are not used: single-photo posts
    /// come with and without post-level fields, and paths change between export formats.
    static func identity(of post: ExportPost, first: MediaSorter.Media) -> String {
        let date = post.media.first { $0.uri == first.uri }?.creationTimestamp ?? post.timestamp
        let content = (try? ContentHash.hex(fileAt: first.source)) ?? first.uri
        return "\(date) \(content)"
    }

    private func write(_ text: String, media: [MediaSorter.Media], to folder: String,
                       record: ImportManifest.PostRecord?) throws -> ImportReport.Outcome {
        let path = "\(folder)/post.md"
        var outcome: ImportReport.Outcome
        if let existing = writer.read(path) {
            guard let record, record.hash == ImportManifest.hash(existing) else { return .keptEdits }
            outcome = existing == text ? .unchanged : .updated
        } else if writer.exists(path) {
            return .keptEdits  // not UTF-8 text: certainly not what the import wrote
        } else {
            outcome = record == nil ? .created : .restored
        }
        // Media first, so an interrupted run never leaves a post.md naming a missing file.
        var copied = false
        for file in media where !writer.exists("\(folder)/\(file.name)") {
            try writer.copy(file.source, to: "\(folder)/\(file.name)")
            copied = true
        }
        if outcome != .unchanged {
            try writer.write(text, to: path)
        } else if copied {
            outcome = .restored
        }
        return outcome
    }
}
