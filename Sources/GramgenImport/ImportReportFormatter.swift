/// The words an import prints: what it wrote, what it kept, and every file it could not use
/// (never dropped silently), in the order they should appear. Warnings go to standard error.
public struct ImportReportFormatter {
    /// One line of output; warnings go to standard error so they survive `> log.txt`.
    public struct Line: Equatable, Sendable {
        public var text: String
        public var isWarning: Bool
    }

    /// The export path as the user typed it, echoed in the first line.
    public let exportName: String

    /// `exportName` as the user typed it.
    public init(exportName: String) {
        self.exportName = exportName
    }

    /// The whole output: actions, then warnings, then the summary (and, for a dry run, the files).
    public func lines(for report: ImportReport) -> [Line] {
        let (info, warnings) = messages(for: report)
        let summary = info.firstIndex { $0.hasPrefix("Imported") || $0.hasPrefix("Would import") } ?? info.count
        return info[..<summary].map { Line(text: $0, isWarning: false) }
            + warnings.map { Line(text: $0, isWarning: true) }
            + info[summary...].map { Line(text: $0, isWarning: false) }
    }

    private func messages(for report: ImportReport) -> (info: [String], warnings: [String]) {
        var info = ["\(report.dryRun ? "Dry run: would import" : "Importing") @\(report.handle) from \(exportName) into \(report.userFolder)/"]
        var warnings: [String] = []
        if let outcome = report.profile {
            if outcome == .keptEdits {
                info.append("\(report.dryRun ? "would keep" : "kept") your edits in \(report.profilePath) (delete it and import again to take the export's profile)")
            } else if outcome != .unchanged {
                info.append("\(verb(outcome, report.dryRun)) \(report.profilePath)")
            }
        }
        for post in report.posts {
            switch post.outcome {
            case .unchanged:
                continue
            case .keptEdits:
                info.append("\(report.dryRun ? "would keep" : "kept") your edits in \(post.folder)/post.md (delete it and import again to take the export's version)")
            default:
                let draft = post.isDraft ? ", a draft: archived on Instagram" : ""
                let reel = post.isReel ? ", a Reel" : ""
                let counts = [post.photoCount > 0 || post.videoCount == 0 ? plural(post.photoCount, "photo") : nil,
                              post.videoCount > 0 ? plural(post.videoCount, "video") : nil].compactMap { $0 }
                info.append("\(verb(post.outcome, report.dryRun)) \(post.folder)/ (\(counts.joined(separator: ", "))\(reel)\(draft))")
            }
        }
        if !report.skippedFiles.isEmpty {
            warnings.append("warning: skipped \(plural(report.skippedFiles.count, "file")) gramgen cannot use:")
            for file in report.skippedFiles {
                let place = file.postDay.map { "post of \($0)" + (file.postFolder.map { ", \($0)/" } ?? ", not imported") }
                    ?? "profile picture"
                warnings.append("  \(file.uri): \(reason(file.reason)) (\(place))")
            }
        }
        if !report.postsWithoutMedia.isEmpty {
            warnings.append("warning: \(plural(report.postsWithoutMedia.count, "post")) had no photo or video gramgen can use and "
                + "\(report.postsWithoutMedia.count == 1 ? "was" : "were") not imported: "
                + report.postsWithoutMedia.joined(separator: ", "))
        }
        for item in report.notImported {
            info.append("not imported: \(plural(item.count, item.kind)) (\(item.why))")
        }
        if !report.followingLeftOut.isEmpty {
            info.append("following: \(report.following.count) of \(report.following.count + report.followingLeftOut.count) "
                + "accounts are users of this site; left out \(report.followingLeftOut.count) "
                + "(add them as users and import again to include them)")
        }
        info.append(summary(report))
        if report.dryRun {
            info.append(report.written.isEmpty ? "Nothing would be written." : "Would write:")
            info += report.written.map { "  \($0)" }
        }
        return (info, warnings)
    }

    private func summary(_ report: ImportReport) -> String {
        let parts: [(ImportReport.Outcome, String)] = [
            (.created, "new"), (.restored, "restored"), (.updated, "updated"), (.unchanged, "unchanged"), (.keptEdits, "kept your edits"),
        ]
        let counts = parts.compactMap { outcome, word in report.count(outcome) > 0 ? "\(report.count(outcome)) \(word)" : nil }
        var line = "\(report.dryRun ? "Would import" : "Imported") \(plural(report.posts.count, "post"))"
        if !counts.isEmpty { line += " (\(counts.joined(separator: ", ")))" }
        let kinds = [(report.posts.filter(\.isReel).count, "Reel"), (report.posts.filter(\.isStory).count, "story"),
                     (report.posts.reduce(0) { $0 + $1.photoCount }, "photo"), (report.posts.reduce(0) { $0 + $1.videoCount }, "video")]
            .filter { $0.0 > 0 }.map { plural($0.0, $0.1) }
        if !kinds.isEmpty { line += " with \(kinds.joined(separator: ", "))" }
        if !report.skippedFiles.isEmpty { line += "; skipped \(plural(report.skippedFiles.count, "file"))" }
        return line + "."
    }

    private func verb(_ outcome: ImportReport.Outcome, _ dryRun: Bool) -> String {
        switch outcome {
        case .created: return dryRun ? "would create" : "created"
        case .restored: return dryRun ? "would restore" : "restored"
        case .updated: return dryRun ? "would update" : "updated"
        case .unchanged: return "unchanged"
        case .keptEdits: return "kept"
        }
    }

    private func reason(_ reason: ImportReport.SkipReason) -> String {
        switch reason {
        case .unsupported: return "not a photo or video type gramgen can use"
        case .missingFromExport: return "not in the export"
        case .notReadable(let why): return why
        case .overLimit(let limit): return "more than \(limit) photos in the post (raise max_images_per_post in site.yml and import again)"
        }
    }

    private func plural(_ n: Int, _ word: String) -> String {
        if n == 1 { return "1 \(word)" }
        return word.hasSuffix("y") ? "\(n) \(word.dropLast())ies" : "\(n) \(word)s"
    }
}
