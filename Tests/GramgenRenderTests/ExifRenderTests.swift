import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// `show_exif` on the post page: the allow-listed camera settings, only when the post or site asks.
struct ExifRenderTests {
    static func site(showExif: Bool?, siteDefault: Bool) -> (Site, [String: ProcessedImage]) {
        var config = SiteConfig()
        config.showExif = siteDefault
        config.images.formats = [.jpeg]
        let image = ProcessedImage(
            width: 640, height: 480, variants: [ImageVariant(format: .jpeg, width: 640, height: 480, file: "a.jpg")],
            squares: [ImageVariant(format: .jpeg, width: 120, height: 120, file: "b.jpg")], focusX: 0.5, focusY: 0.5,
            dominantColor: "#112233", placeholder: "data:image/webp;base64,AA==",
            camera: CameraInfo(camera: "Canon EOS R6", aperture: "f/2.8", iso: "400"))
        let source = ImageSource(path: "content/users/ann/posts/p/1.jpg", fileURL: URL(fileURLWithPath: "/x"), alt: "A photo")
        let post = Post(id: "p", author: "ann", date: PostDate(instant: Date(timeIntervalSince1970: 0), utcOffsetSeconds: 0),
                        location: nil, images: [source], caption: RichText(html: "<p>Hi</p>\n", plainText: "Hi"),
                        tagKeys: [], likedBy: [], comments: [], isDraft: false, isSensitive: false, showExif: showExif,
                        sourcePath: "content/users/ann/posts/p/post.md")
        let user = Profile(handle: "ann", name: "Ann", bio: RichText(), website: nil, location: nil, following: [],
                           avatar: nil, sourcePath: "content/users/ann/profile.md")
        return (Site(config: config, users: [user], posts: [post], tags: []), [source.path: image])
    }

    func postPage(showExif: Bool?, siteDefault: Bool) throws -> String {
        let (site, images) = Self.site(showExif: showExif, siteDefault: siteDefault)
        var diagnostics = Diagnostics()
        let theme = Theme.load(siteRoot: nil, diagnostics: &diagnostics)
        #expect(diagnostics.items.isEmpty)
        let files = try SiteRenderer(site: site, images: images, theme: theme).render()
        let page = try #require(files.first { $0.path == "ann/p/p/index.html" })
        return String(decoding: page.contents, as: UTF8.self)
    }

    @Test("camera settings show when the post or the site asks, and only then", arguments: [
        (Optional(true), false, true), (nil, true, true), (Optional(false), true, false), (nil, false, false),
    ])
    func shown(_ post: Bool?, _ site: Bool, _ expected: Bool) throws {
        let html = try postPage(showExif: post, siteDefault: site)
        #expect(html.contains("Camera details") == expected)
        #expect(html.contains("<dd>f/2.8</dd>") == expected)
        #expect(html.contains("<dd>Canon EOS R6</dd>") == expected)
    }
}
