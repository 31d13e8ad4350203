import Foundation
import GramgenCore
import GramgenMarkdown

/// Reads `users/<handle>/profile.md` and finds the avatar.
struct ProfileLoader {
    static let keys = ["name", "avatar", "website", "location", "following"]

    let contentRoot: URL
    let markdown: MarkdownRenderer

    func load(handle: String, diagnostics: inout Diagnostics) -> (Profile, [Reference]) {
        let folder = contentRoot.appendingPathComponent("users/\(handle)")
        let path = "content/users/\(handle)/profile.md"
        var profile = Profile(handle: handle, name: handle, bio: RichText(), website: nil, location: nil,
                              following: [], avatar: nil, sourcePath: path)
        guard let text = TextFile.read(folder.appendingPathComponent("profile.md"), path: path,
                                       required: false, within: contentRoot, diagnostics: &diagnostics),
              let matter = FrontMatter.parse(text, path: path, diagnostics: &diagnostics) else {
            profile.avatar = defaultAvatar(in: folder, handle: handle, diagnostics: &diagnostics)
            return (profile, [])
        }
        let fields = matter.fields
        fields.warnUnknownKeys(known: Self.keys, diagnostics: &diagnostics)
        if let name = fields.string("name", diagnostics: &diagnostics), !name.isEmpty { profile.name = name }
        profile.location = fields.string("location", diagnostics: &diagnostics)
        if let website = fields.string("website", diagnostics: &diagnostics) {
            if WebLink.isSafe(website) {
                profile.website = website
            } else {
                diagnostics.error(fields.location(of: fields.node("website")), "website must be an http(s) URL",
                                  hint: "write for example `website: https://example.com`")
            }
        }
        let following = References.handles("following", in: fields, diagnostics: &diagnostics)
        profile.following = following.map(\.handle)
        profile.bio = CaptionRenderer(markdown: markdown).render(
            matter.body, path: path, firstLine: matter.bodyFirstLine, diagnostics: &diagnostics)
        if let avatarNode = fields.node("avatar") {
            let name = fields.string("avatar", diagnostics: &diagnostics) ?? ""
            if name.lowercased() == "none" {
                profile.avatar = nil
            } else if let problem = References.fileNameProblem(name) {
                diagnostics.error(fields.location(of: avatarNode), problem, hint: "name a file in the user's folder")
            } else {
                let url = folder.appendingPathComponent(name)
                if let problem = ImageFiles.problem(with: url, contentRoot: contentRoot, listedIn: "avatar:") {
                    diagnostics.error(fields.location(of: avatarNode), "avatar '\(name)': \(problem.message)",
                                      hint: problem.hint)
                } else {
                    profile.avatar = ImageSource(path: "content/users/\(handle)/\(name)", fileURL: url,
                                                 alt: "")
                }
            }
        } else {
            profile.avatar = defaultAvatar(in: folder, handle: handle, name: profile.name, diagnostics: &diagnostics)
        }
        return (profile, following)
    }

    /// The first `avatar.*` image in the folder.
    /// One that cannot be used is an error, not a silent fall back to initials.
    private func defaultAvatar(in folder: URL, handle: String, name: String? = nil,
                               diagnostics: inout Diagnostics) -> ImageSource? {
        guard let file = ImageFiles.list(in: folder).first(where: { ($0 as NSString).deletingPathExtension.lowercased() == "avatar" })
        else { return nil }
        let url = folder.appendingPathComponent(file)
        if let problem = ImageFiles.problem(with: url, contentRoot: contentRoot) {
            diagnostics.error(SourceLocation("content/users/\(handle)/\(file)"), problem.message, hint: problem.hint)
            return nil
        }
        return ImageSource(path: "content/users/\(handle)/\(file)", fileURL: url,
                           alt: "")
    }
}
