import Foundation
import GramgenCore

/// The text of every file the scaffold commands write. Kept in one place so the wording of the
/// starter site can be reviewed (and its YAML checked by the tests) without reading the logic.
enum ScaffoldTexts {
    static let siteYAML = """
    # Site settings. Every key is optional; the values shown are the defaults.
    # The full list of keys is in gramgen's site format documentation (SITE-FORMAT.md).

    title: "gram"
    description: "Photos from friends"
    # Where the site will live. Feeds, the sitemap and share previews use absolute URLs from it.
    # `gramgen serve` overrides it with its own address while you preview.
    base_url: "http://localhost:8000/"
    language: en
    posts_per_page: 12
    max_images_per_post: 10
    max_hashtags_per_post: 100       # more is an error: each tag gets a page and a feed

    images:
      widths: [320, 640, 1080, 1440]   # responsive widths; images are never upscaled
      formats: [avif, webp, jpeg]      # <picture> sources; the last one is the <img> fallback
      quality: 80
      thumbnail: 480                   # square grid tile edge, smart-cropped
      strip_metadata: true             # removes EXIF/GPS (your location!) from published images

    """

    static func profile(name: String) -> String {
        """
        ---
        name: \(YAMLQuote.quoted(name))
        # avatar: avatar.jpg        # default: the first avatar.* in this folder
        # website: https://example.com
        # location: Somewhere
        following: []               # handles of the users you follow
        # Below: your bio in Markdown. A # before a word makes a hashtag, an @ before a handle a link.
        ---
        A line or two about you.

        """
    }

    static func firstPost(date: String) -> String {
        PostFile(date: date, location: "Home", images: [.init(file: "1.jpg", alt: "A soft gradient from coral to violet")],
                 caption: "Hello! This is the first post of my new photo site. #hello\n\n"
                     + "Edit this caption in post.md, or add a post with `gramgen new post`.").text
    }

    /// A new post: one `images:` entry per photo, each with an alt-text placeholder to fill in.
    static func post(date: String, images: [String]) -> String {
        var file = PostFile(date: date, images: images.map {
            PostFile.Media(file: $0, alt: "", altHint: "describe the photo for people who cannot see it")
        }, caption: "Write your caption here.")
        file.optionalKeys = ["location: \"Where it was taken\""]
        file.hints = ["draft: true                # keep it out of the site until you are ready",
                      "Below: the caption in Markdown. A # before a word makes a hashtag, an @ before a handle a link."]
        return file.text
    }

    static func readme(handle: String) -> String {
        """
        # My gramgen site

        A photo site built with gramgen.

        - `content/site.yml` — the site's settings
        - `content/users/\(handle)/profile.md` — your profile; `avatar.jpg` beside it
        - `content/users/\(handle)/posts/` — one folder per post: `post.md` plus the photos

        Everyday commands:

            gramgen serve                         # preview at http://127.0.0.1:8000/, reloads on every save
            gramgen new post \(handle) my-trip ~/Pictures/*.jpg
            gramgen new user friend --name "A Friend"
            gramgen build                         # the finished site in public/, ready to upload

        The full format is described in gramgen's docs (SITE-FORMAT.md and docs/serve.md).

        """
    }

    static let gitignore = "/public/\n/.gramgen/\n"
}
