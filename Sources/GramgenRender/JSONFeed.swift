import Foundation
import GramgenCore

/// JSON Feed 1.1 documents (https://jsonfeed.org/version/1.1) with gramgen's `_gramgen` image extension.
struct JSONFeed {
    let version = "https://jsonfeed.org/version/1.1"
    let title: String
    let homePageURL: String
    let feedURL: String
    let description: String?
    let language: String
    let icon: String?
    let nextURL: String?
    /// Each item already written at the indentation of the `items` array (`Item.json`).
    let items: [[UInt8]]


    struct Author {
        let name: String
        let url: String
        let avatar: String?
    }

    struct Item {
        let id: String
        let url: String
        let contentHTML: String
        let contentText: String
        let summary: String?
        let datePublished: String
        let authors: [Author]
        let tags: [String]?
        let image: String?
        /// Videos, as JSON Feed attachments.
        let attachments: [Image]
        let gramgen: Extension

        /// The item as it stands in a feed's `items` array (4 spaces deep).
        var json: [UInt8] {
            var out: [UInt8] = []
            JSONWriter.write(.object([
                "id": .string(id), "url": .string(url), "content_html": .string(contentHTML),
                "content_text": .string(contentText), "summary": summary.map(JSONValue.string),
                "date_published": .string(datePublished),
                "authors": .array(authors.map { author in
                    .object(["name": .string(author.name), "url": .string(author.url),
                             "avatar": author.avatar.map(JSONValue.string)])
                }),
                "tags": tags.map { .array($0.map(JSONValue.string)) }, "image": image.map(JSONValue.string),
                "attachments": attachments.isEmpty ? nil : .array(attachments.map { video in
                    .object(["url": .string(video.url), "mime_type": .string(video.mimeType),
                             "size_in_bytes": video.video.map { .int($0.bytes) },
                             "duration_in_seconds": video.video.map { .number($0.duration) }])
                }),
                "_gramgen": .object([
                    "location": gramgen.location.map(JSONValue.string), "sensitive": .bool(gramgen.sensitive),
                    "repost_of": gramgen.repostOf.map(JSONValue.string),
                    "images": .array(gramgen.images.map { image in
                        .object(["url": .string(image.url), "width": .int(image.width), "height": .int(image.height),
                                 "aspect_ratio": .number(image.aspectRatio), "alt": .string(image.alt),
                                 "mime_type": .string(image.mimeType), "dominant_color": .string(image.dominantColor),
                                 "placeholder": .string(image.placeholder),
                                 "type": .string(image.video == nil ? "photo" : "video"),
                                 "poster": image.video.map { .string($0.poster) },
                                 "duration": image.video.map { .number($0.duration) }])
                    }),
                ]),
            ]), indent: 4, into: &out)
            return out
        }
    }

    /// `_gramgen`: the post's images in order, with what a client needs to lay them out before loading.
    struct Extension {
        let location: String?
        let sensitive: Bool
        let images: [Image]
        /// For a repost: the original's item `id`.
        let repostOf: String?
    }

    struct Image {
        let url: String
        let width: Int
        let height: Int
        let aspectRatio: Double
        let alt: String
        let mimeType: String
        let dominantColor: String
        let placeholder: String
        /// For a video: `url` is its MP4, this its poster and length.
        let video: Video?
    }

    struct Video {
        let poster: String
        let duration: Double
        let bytes: Int
    }

    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(items.reduce(512) { $0 + $1.count + 8 })
        JSONWriter.write(.object([
            "version": .string(version), "title": .string(title), "home_page_url": .string(homePageURL),
            "feed_url": .string(feedURL), "description": description.map(JSONValue.string),
            "language": .string(language), "icon": icon.map(JSONValue.string),
            "next_url": nextURL.map(JSONValue.string), "items": .array(items.map(JSONValue.raw)),
        ]), into: &out)
        return out
    }
}
