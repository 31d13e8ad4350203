import Foundation
import GramgenCore

/// JSON Feed 1.1 documents (https://jsonfeed.org/version/1.1) with gramgen's `_gramgen` image extension.
struct JSONFeed: Encodable {
    let version = "https://jsonfeed.org/version/1.1"
    let title: String
    let homePageURL: String
    let feedURL: String
    let description: String?
    let language: String
    let icon: String?
    let nextURL: String?
    let items: [Item]

    enum CodingKeys: String, CodingKey {
        case version, title, description, language, icon, items
        case homePageURL = "home_page_url", feedURL = "feed_url", nextURL = "next_url"
    }

    struct Author: Encodable {
        let name: String
        let url: String
        let avatar: String?
    }

    struct Item: Encodable {
        let id: String
        let url: String
        let contentHTML: String
        let contentText: String
        let summary: String?
        let datePublished: String
        let authors: [Author]
        let tags: [String]?
        let image: String?
        let gramgen: Extension

        enum CodingKeys: String, CodingKey {
            case id, url, summary, authors, tags, image
            case contentHTML = "content_html", contentText = "content_text", datePublished = "date_published"
            case gramgen = "_gramgen"
        }
    }

    /// `_gramgen`: the post's images in order, with what a client needs to lay them out before loading.
    struct Extension: Encodable {
        let location: String?
        let sensitive: Bool
        let images: [Image]
    }

    struct Image: Encodable {
        let url: String
        let width: Int
        let height: Int
        let aspectRatio: Double
        let alt: String
        let mimeType: String
        let dominantColor: String
        let placeholder: String

        enum CodingKeys: String, CodingKey {
            case url, width, height, alt, placeholder
            case aspectRatio = "aspect_ratio", mimeType = "mime_type", dominantColor = "dominant_color"
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
