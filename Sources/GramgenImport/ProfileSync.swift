import Foundation
import GramgenCore

/// Writes the user's `profile.md` and avatar from the export, unless the user has made them
/// their own: an edited profile.md or an avatar they placed is never replaced.
struct ProfileSync {
    let writer: SiteWriter
    let sorter: MediaSorter
    let userFolder: String
    let handle: String

    func sync(_ export: InstagramExport, manifest: inout ImportManifest, report: inout ImportReport) throws {
        let avatar = try syncAvatar(export.profile.avatarURI, manifest: &manifest, report: &report)
        let users = writer.siteUsers()
        let followed = export.following.filter { $0 != handle }
        report.following = followed.filter(users.contains)
        report.followingLeftOut = followed.filter { !users.contains($0) }
        let profile = ProfileMarkdown(
            name: export.profile.name, avatar: avatar, website: ProfileMarkdown.website(from: export.profile.website),
            following: report.following, bio: export.profile.bio)
        let text = profile.text
        let path = report.profilePath
        if let existing = writer.read(path) {
            guard manifest.profileHash == ImportManifest.hash(existing) else {
                report.profile = .keptEdits
                return
            }
            if existing == text {
                report.profile = .unchanged
                return
            }
            report.profile = .updated
        } else if writer.exists(path) {
            report.profile = .keptEdits
            return
        } else {
            report.profile = manifest.profileHash == nil ? .created : .restored
        }
        try writer.write(text, to: path)
        manifest.profileHash = ImportManifest.hash(text)
    }

    /// The avatar's file name for `avatar:`, or nil to leave the line out. An `avatar.*` the
    /// import did not place is the user's choice and stays (the site then uses it by default).
    private func syncAvatar(_ uri: String?, manifest: inout ImportManifest, report: inout ImportReport) throws -> String? {
        guard let uri else { return nil }
        guard let source = sorter.resolve(uri), MediaSorter.fileProblem(source) == nil,
              case .image(let ext) = MediaKind.of(source) else {
            report.skippedFiles.append(.init(uri: uri, reason: sorter.resolve(uri) == nil ? .missingFromExport : .unsupported,
                                             postDay: nil, postFolder: nil))
            return nil
        }
        let name = "avatar.\(ext)"
        let present = existingAvatars()
        if present.isEmpty {
            try writer.copy(source, to: "\(userFolder)/\(name)")
            manifest.avatar = name
            return name
        }
        if let mine = manifest.avatar, present.contains(mine) { return mine }
        return nil
    }

    private func existingAvatars() -> [String] {
        ExportLayout.visibleEntries(of: writer.url(userFolder))
            .filter { ($0 as NSString).deletingPathExtension.lowercased() == "avatar" }
    }
}
