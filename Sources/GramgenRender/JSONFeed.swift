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

        /// The item as it stands in a feed's `items` array (4 spaces deep), its keys in order.
        var json: [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(contentHTML.utf8.count + contentText.utf8.count + 1024)
            JSONWriter.object(indent: 4, into: &out) { item in
                item.object("_gramgen") { extra in
                    extra.array("images") { list in
                        for image in gramgen.images {
                            list.object { fields in
                                fields.string("alt", image.alt)
                                fields.number("aspect_ratio", image.aspectRatio)
                                fields.string("dominant_color", image.dominantColor)
                                fields.number("duration", image.video?.duration)
                                fields.int("height", image.height)
                                fields.string("mime_type", image.mimeType)
                                fields.string("placeholder", image.placeholder)
                                fields.string("poster", image.video?.poster)
                                fields.string("type", image.video == nil ? "photo" : "video")
                                fields.string("url", image.url)
                                fields.int("width", image.width)
                            }
                        }
                    }
                    extra.string("location", gramgen.location)
                    extra.string("repost_of", gramgen.repostOf)
                    extra.bool("sensitive", gramgen.sensitive)
                }
                if !attachments.isEmpty {
                    item.array("attachments") { list in
                        for video in attachments {
                            list.object { fields in
                                fields.number("duration_in_seconds", video.video?.duration)
                                fields.string("mime_type", video.mimeType)
                                fields.int("size_in_bytes", video.video?.bytes)
                                fields.string("url", video.url)
                            }
                        }
                    }
                }
                item.array("authors") { list in
                    for author in authors {
                        list.object { fields in
                            fields.string("avatar", author.avatar)
                            fields.string("name", author.name)
                            fields.string("url", author.url)
                        }
                    }
                }
                item.string("content_html", contentHTML)
                item.string("content_text", contentText)
                item.string("date_published", datePublished)
                item.string("id", id)
                item.string("image", image)
                item.string("summary", summary)
                if let tags {
                    item.array("tags") { list in
                        for tag in tags { list.string(tag) }
                    }
                }
                item.string("url", url)
            }
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
        JSONWriter.object(indent: 0, into: &out) { feed in
            feed.string("description", description)
            feed.string("feed_url", feedURL)
            feed.string("home_page_url", homePageURL)
            feed.string("icon", icon)
            feed.array("items") { list in
                for item in items { list.raw(item) }
            }
            feed.string("language", language)
            feed.string("next_url", nextURL)
            feed.string("title", title)
            feed.string("version", version)
        }
        return out
    }
}
