import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// The digests pages are compared by between builds (see `RenderInputs`): one for what every
/// page may show, one per post for its own sources. Built from the source files' bytes and the
/// processed images, so an edit anywhere a page reads from changes its digest.
enum InputDigests {
    static func make(site: Site, images: [String: ProcessedImage], options: BuildOptions) -> RenderInputs {
        let root = options.siteRoot.path + "/"
        var global = DigestBuilder()
        global.add("gramgen \(UpToDateCheck.executableStamp()) \(Theme.builtInDigest) \(ImageProcessor.pipelineVersion)")
        global.add("drafts=\(options.includeDrafts) base=\(options.baseURL ?? "")")
        global.add(bytes(root + "content/site.yml"))
        let templates = options.siteRoot.appendingPathComponent("templates")
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []).sorted() {
            global.add(name)
            global.add(bytes(templates.path + "/" + name))
        }
        for user in site.users {
            global.add(user.handle)
            global.add(bytes(root + user.sourcePath))
            if let avatar = user.avatar { add(avatar, images[avatar.path], to: &global) }
        }

        let posts = site.posts
        let digests = options.parallel.map(count: posts.count) { index in
            let post = posts[index]
            var digest = DigestBuilder()
            digest.add(bytes(root + post.sourcePath))
            for image in post.images { add(image, images[image.path], to: &digest) }
            return digest.hex
        }
        return RenderInputs(site: global.hex, posts: Dictionary(uniqueKeysWithValues: zip(posts.map(\.key), digests)))
    }

    private static func add(_ source: ImageSource, _ image: ProcessedImage?, to digest: inout DigestBuilder) {
        digest.add(source.path)
        digest.add(source.alt)
        guard let image else { return digest.add("-") }
        for file in image.files { digest.add(file) }
        digest.add("\(image.width)x\(image.height) \(image.focusX) \(image.focusY) \(image.dominantColor)")
        digest.add(image.placeholder)
        for item in image.camera?.items ?? [] { digest.add("\(item.label)=\(item.value)") }
    }

    private static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { Array($0) } ?? []
    }
}
