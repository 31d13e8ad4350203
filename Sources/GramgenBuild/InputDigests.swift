import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// The digests pages are compared by between builds (see `RenderInputs`): one for what every
/// page may show, one per post for its own sources, one per user for what only their profile
/// pages and the people directory show. Built from the source files' bytes (a post's from its
/// text as the loader read it, `Post.sourceDigest`; a profile's from its parsed fields, split in
/// two) and the processed images, so an edit anywhere a page reads from changes its digest.
enum InputDigests {
    static func make(site: Site, images: [String: ProcessedImage], theme: Theme, options: BuildOptions) -> RenderInputs {
        let root = options.siteRoot.path + "/"
        var global = DigestBuilder()
        global.add("gramgen \(UpToDateCheck.executableStamp()) \(Theme.builtInDigest) \(ImageProcessor.pipelineVersion)")
        global.add("drafts=\(options.includeDrafts) base=\(options.baseURL ?? "")")
        global.add(bytes(root + "content/site.yml"))
        // The site's own texts (`content/i18n/<language>.yml`) as loaded: every page shows some.
        // Not the file read again (a second read, which could meet another file since).
        global.add("i18n \(String(reflecting: site.config.messageOverrides))")
        // The theme's files as loaded, not `templates/` read again.
        global.add(theme.filesDigest)
        var profiles: [String: String] = [:]
        for user in site.users {
            // What any page may show of a user: handle, name, avatar, whom they follow.
            global.add(user.handle)
            global.add(user.name)
            global.add(UInt64(user.following.count))
            for handle in user.following { global.add(handle) }
            if let avatar = user.avatar { add(avatar, images[avatar.path], to: &global) } else { global.add("-") }
            // What only their own profile pages and the people directory show.
            var details = DigestBuilder()
            details.add(user.bio.html)
            details.add(user.bio.plainText)
            details.add(user.website.map { "w" + $0 } ?? "-")
            details.add(user.location.map { "l" + $0 } ?? "-")
            profiles[user.handle] = details.hex
        }

        let posts = site.posts
        let digests = options.parallel.map(count: posts.count) { index in
            let post = posts[index]
            var digest = DigestBuilder()
            digest.add(post.sourceDigest)
            for image in post.images { add(image, images[image.path], to: &digest) }
            return digest.value
        }
        return RenderInputs(site: global.hex, posts: digests, profiles: profiles)
    }

    private static func add(_ source: ImageSource, _ image: ProcessedImage?, to digest: inout DigestBuilder) {
        digest.add(source.path)
        digest.add(source.alt)
        guard let image else { return digest.add("-") }
        _ = image.allFiles { digest.add($0); return true }
        // Numbers as numbers: 10,000 images' focus points written out as text were a tenth of this.
        digest.add(UInt64(bitPattern: Int64(image.width)))
        digest.add(UInt64(bitPattern: Int64(image.height)))
        digest.add(image.focusX.bitPattern)
        digest.add(image.focusY.bitPattern)
        digest.add(image.dominantColor)
        digest.add(image.placeholder)
        for item in image.camera?.items ?? [] { digest.add("\(item.label)=\(item.value)") }
    }

    /// A file's bytes as the loader reads them: a regular file, bounded, never waited on (a FIFO
    /// swapped in since it was loaded is not read); nothing for any other.
    private static func bytes(_ path: String) -> [UInt8] {
        guard case .success(let data) = InputFile.read(atPath: path, limit: InputFile.maxTextBytes) else { return [] }
        return Array(data)
    }
}
