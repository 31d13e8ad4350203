import GramgenCore

/// `feed.xml`: the newest posts of the whole site as an Atom 1.0 feed (RFC 4287).
struct AtomFeed {
    let site: Site
    let images: [String: ProcessedImage]
    let items: [Post]
    let messages: Messages

    func file() -> OutputFile {
        let base = site.config.baseURL
        let feeds = FeedSet(site: site, images: images, messages: messages)
        var xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(Escape.html(site.config.language))">
          <title>\(Escape.html(site.config.title))</title>
          <id>\(Escape.html(base))</id>
          <link rel="alternate" type="text/html" href="\(Escape.html(base))"/>
          <link rel="self" type="application/atom+xml" href="\(Escape.html(base + SitePaths.atomFeed))"/>
          <updated>\(items.first.map { $0.date.rfc3339 } ?? "1970-01-01T00:00:00Z")</updated>

        """
        if !site.config.description.isEmpty {
            xml += "  <subtitle>\(Escape.html(site.config.description))</subtitle>\n"
        }
        for post in items {
            let item = feeds.item(post)
            let author = item.authors.first
            xml += """
              <entry>
                <id>\(Escape.html(item.id))</id>
                <title>\(Escape.html(title(post)))</title>
                <link rel="alternate" type="text/html" href="\(Escape.html(item.url))"/>
                <published>\(item.datePublished)</published>
                <updated>\(item.datePublished)</updated>
                <author><name>\(Escape.html(author?.name ?? post.author))</name><uri>\(Escape.html(author?.url ?? base))</uri></author>
                <content type="html">\(Escape.html(item.contentHTML))</content>

            """
            for video in item.attachments {
                xml += "    <link rel=\"enclosure\" type=\"\(Escape.html(video.mimeType))\" length=\"\(video.video?.bytes ?? 0)\" href=\"\(Escape.html(video.url))\"/>\n"
            }
            for tag in item.tags ?? [] {
                xml += "    <category term=\"\(Escape.html(tag))\"/>\n"
            }
            xml += "  </entry>\n"
        }
        xml += "</feed>\n"
        return OutputFile(path: SitePaths.atomFeed, text: xml)
    }

    private func title(_ post: Post) -> String {
        let name = site.usersByHandle[post.author]?.name ?? post.author
        let text = post.caption.plainText
        let key = site.mediaPost(post).images.first?.isVideo == true ? "alt_video" : "alt_photo"
        return text.isEmpty ? messages.text(key, ["author": name]) : SiteRenderer.shorten(text, to: 80)
    }
}
