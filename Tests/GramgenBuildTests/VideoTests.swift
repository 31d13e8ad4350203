import Foundation
import Testing
@testable import GramgenBuild
import GramgenContent
import GramgenCore
@testable import GramgenImaging

/// Video posts with the real FFmpeg: what is published, what is kept out of it, what the pages
/// and feeds say, and what the cache saves.
struct VideoTests {
    /// A site with one user, ann, and her posts under `posts`.
    struct VideoSite {
        let box: ContainmentTests.Sandbox

        init() throws {
            box = try ContainmentTests.Sandbox()
            try FileManager.default.removeItem(at: box.post)
        }

        func post(_ id: String, _ frontMatter: String = "", caption: String = "A clip") throws -> URL {
            try box.write("site/content/users/ann/posts/\(id)/post.md", "---\n\(frontMatter)---\n\(caption)\n")
            return box.site.appendingPathComponent("content/users/ann/posts/\(id)")
        }

        func page(_ path: String) throws -> String {
            try String(contentsOf: box.output.appendingPathComponent(path), encoding: .utf8)
        }

        func json(_ path: String) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(contentsOf: box.output.appendingPathComponent(path))) as? [String: Any])
        }

        var media: [URL] {
            let folder = box.output.appendingPathComponent("media")
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .map { folder.appendingPathComponent($0) }
        }
    }

    @Test("no location, date, device or extra track of a phone video reaches the published files; rotation is applied")
    func privacy() throws {
        let site = try VideoSite()
        defer { site.box.remove() }
        let folder = try site.post("2024-05-26-clip")
        let source = folder.appendingPathComponent("1.mov")
        let subtitles = site.box.root.appendingPathComponent("gps.srt")
        try Data("1\n00:00:00,000 --> 00:00:02,000\nGPS 37.77493 -122.41942 iPhone 15 Pro\n".utf8).write(to: subtitles)
        try MediaTools.clip(source, size: "640x360", seconds: 2, audio: true, inputs: ["-i", subtitles.path], extra: [
            "-map", "0:v", "-map", "1:a", "-map", "2:s", "-c:s", "mov_text",
            "-metadata", "location=+37.77493-122.41942/", "-metadata", "creation_time=2024-05-26T09:00:00Z",
            "-metadata", "make=Apple", "-metadata", "model=iPhone 15 Pro",
            "-movflags", "use_metadata_tags",
            "-metadata", "com.apple.quicktime.location.ISO6709=+37.77493-122.41942+010.000/",
            "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
            "-metadata", "com.apple.quicktime.creationdate=2024-05-26T11:00:00+0200",
        ])
        try MediaTools.run("exiftool", ["-q", "-overwrite_original", "-Rotation=90", source.path])
        // The source does carry all of it, so the checks below can fail.
        let before = String(decoding: try MediaTools.run("exiftool", ["-a", "-G1", source.path]), as: UTF8.self)
        for secret in ["GPS", "iPhone 15 Pro", "2024:05:26", "Rotation                        : 90"] {
            #expect(before.contains(secret), "the fixture lacks \(secret)")
        }

        let (report, text) = try site.box.build()
        #expect(text == "" && report.published)
        let videos = site.media.filter { $0.pathExtension == "mp4" }
        #expect(videos.count == 1)
        let secrets = ["37.77", "122.41", "iPhone", "Apple", "ISO6709", "2024-05-26", "2024:05:26", "GPS", "creationdate"]
        for file in site.media {
            let bytes = try Data(contentsOf: file)
            for secret in secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file.lastPathComponent) holds \(secret)")
            }
        }
        for video in videos {
            let exif = String(decoding: try MediaTools.run("exiftool", ["-a", "-G1", "-s", video.path]), as: UTF8.self)
            for line in exif.split(separator: "\n") {
                for tag in ["GPS", "Make", "Model", "Location", "ISO6709"] {
                    #expect(!line.contains(tag), "exiftool: \(line)")
                }
                if line.contains("Date") && !line.contains("[System]") {
                    #expect(line.hasSuffix("0000:00:00 00:00:00"), "exiftool: \(line)")
                }
            }
            let probe = try MediaTools.probe(video)
            let streams = try #require(probe["streams"] as? [[String: Any]])
            #expect(streams.map { $0["codec_type"] as? String } == ["video", "audio"])
            let picture = streams[0]
            #expect(picture["width"] as? Int == 360 && picture["height"] as? Int == 640, "rotated upright")
            #expect(picture["side_data_list"] == nil, "no display matrix")
            let formatTags = (probe["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
            #expect(Set(formatTags.keys).isSubset(of: ["major_brand", "minor_version", "compatible_brands"]), "\(formatTags)")
        }
    }

    @Test("a video with a photo in a carousel: pages, feeds and the cache")
    func pagesFeedsAndCache() throws {
        let site = try VideoSite()
        defer { site.box.remove() }
        let carousel = try site.post("2024-06-01-walk", "location: Seoul\n", caption: "Walk #river")
        try MediaTools.clip(carousel.appendingPathComponent("1.mp4"), size: "640x360", seconds: 1.5, audio: true)
        try FileManager.default.copyItem(at: ContainmentTests.photo, to: carousel.appendingPathComponent("2.jpg"))
        let single = try site.post("2024-06-02-quiet")
        try MediaTools.clip(single.appendingPathComponent("1.m4v"), size: "240x320", seconds: 1, audio: false)

        let (report, text) = try site.box.build()
        #expect(text == "" && report.published)
        #expect(report.imagesProcessed == 3)
        let videos = site.media.filter { $0.pathExtension == "mp4" }
        #expect(videos.count == 2)

        // The post page: a player with poster and size, loading its metadata; the home feed: nothing until played.
        let post = try site.page("ann/p/2024-06-01-walk/index.html")
        let player = try #require(post.range(of: "<video[^>]*>", options: .regularExpression).map { String(post[$0]) })
        for attribute in ["width=\"640\"", "height=\"360\"", "poster=\"../../../media/", "preload=\"metadata\"", "controls", "playsinline"] {
            #expect(player.contains(attribute), "\(attribute) in \(player)")
        }
        #expect(post.contains("<source src=\"../../../media/") && post.contains("type=\"video/mp4\""))
        #expect(post.contains("<picture>"), "the carousel's photo")
        let home = try site.page("index.html")
        #expect(home.components(separatedBy: "<video ").count == 3)
        #expect(!home.contains("preload=\"metadata\"") && home.contains("preload=\"none\""))
        // A page whose first picture is a video's poster fetches that poster first, the very file its player shows.
        for page in [home, post, try site.page("ann/list/index.html")] {
            let preload = page.range(of: #"<link rel="preload" as="image" href="[^"]*""#, options: .regularExpression)
                .map { String(page[$0].dropLast().split(separator: "\"").last ?? "") }
            let poster = page.range(of: #"poster="[^"]*""#, options: .regularExpression)
                .map { String(page[$0].dropLast().dropFirst("poster=\"".count)) }
            #expect(preload != nil && preload == poster, "preload \(preload ?? "none"), first poster \(poster ?? "none")")
        }
        let profile = try site.page("ann/index.html")
        #expect(profile.contains("badge-video") && profile.contains("0:02") && profile.contains("0:01"))

        // JSON Feed: attachments with type, size and length; `_gramgen` lists both media in order.
        let feed = try site.json("feed.json")
        let items = try #require(feed["items"] as? [[String: Any]])
        let walk = try #require(items.first { ($0["url"] as? String)?.hasSuffix("2024-06-01-walk/") == true })
        let attachments = try #require(walk["attachments"] as? [[String: Any]])
        #expect(attachments.count == 1)
        let attachment = attachments[0]
        #expect(attachment["mime_type"] as? String == "video/mp4")
        let url = try #require(attachment["url"] as? String)
        let file = site.box.output.appendingPathComponent("media").appendingPathComponent((url as NSString).lastPathComponent)
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(attachment["size_in_bytes"] as? Int == size)
        #expect(abs((attachment["duration_in_seconds"] as? Double ?? 0) - 1.5) < 0.1)
        let media = try #require((walk["_gramgen"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(media.map { $0["type"] as? String } == ["video", "photo"])
        #expect(media[0]["url"] as? String == url)
        #expect(media[0]["width"] as? Int == 640 && media[0]["height"] as? Int == 360)
        let poster = try #require(media[0]["poster"] as? String)
        #expect(FileManager.default.fileExists(atPath: site.box.output.appendingPathComponent("media")
            .appendingPathComponent((poster as NSString).lastPathComponent).path))
        #expect(walk["image"] as? String == poster)
        let atom = try site.page("feed.xml")
        #expect(atom.contains("<link rel=\"enclosure\" type=\"video/mp4\" length=\"\(size ?? -1)\" href=\"\(url)\"/>"))

        // A second build transcodes nothing, and a build from an empty cache makes the same bytes.
        try site.box.write("site/content/users/ann/posts/2024-06-02-quiet/post.md", "---\n---\nEdited caption\n")
        let (again, _) = try site.box.build()
        #expect(again.published && again.imagesProcessed == 0 && again.imagesFromCache == 3)
        let fresh = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: fresh) }
        let other = try TestSupport.build(site: site.box.site, output: fresh.appendingPathComponent("public"))
        #expect(other.published && other.imagesProcessed == 3)
        for video in videos {
            let twin = fresh.appendingPathComponent("public/media").appendingPathComponent(video.lastPathComponent)
            #expect(FileManager.default.contentsEqual(atPath: video.path, andPath: twin.path), "byte-identical \(video.lastPathComponent)")
        }
    }

    @Test("configured sizes and a WebM source: smaller files for narrow screens, never upscaled")
    func sizesAndWebM() throws {
        let site = try VideoSite()
        defer { site.box.remove() }
        try site.box.write("site/content/site.yml", "videos:\n  sizes: [240, 480, 4000]\n  webm: vp9\n  quality: 30\n  preset: veryfast\n")
        let folder = try site.post("2024-06-01-walk")
        try MediaTools.clip(folder.appendingPathComponent("1.webm"), size: "640x360", seconds: 1, audio: true,
                            extra: ["-c:v", "libvpx-vp9", "-c:a", "libopus"])
        let (report, text) = try site.box.build()
        #expect(text == "" && report.published)
        let post = try site.page("ann/p/2024-06-01-walk/index.html")
        let pattern = try Regex(#"<source src="[^"]*\.(webm|mp4)" type="video/(webm|mp4)"( media="[^"]*")?>"#)
        let sources = post.matches(of: pattern).map { String(post[$0.range]) }
        #expect(sources.count == 6, "\(sources)")
        #expect(sources.map { $0.contains("video/webm") } == [true, true, true, false, false, false])
        #expect(sources.map { $0.contains("media=") } == [true, true, false, true, true, false])
        #expect(sources[0].contains("(max-width: 120px)") && sources[1].contains("(max-width: 240px)"))
        #expect(post.contains("width=\"640\" height=\"360\""), "4000 is not an upscale: the source size is the largest")
        let sizes = try site.media.filter { ["mp4", "webm"].contains($0.pathExtension) }.map { file -> String in
            let stream = try #require((MediaTools.probe(file)["streams"] as? [[String: Any]])?.first)
            return "\(file.pathExtension) \(stream["width"] as? Int ?? 0)x\(stream["height"] as? Int ?? 0)"
        }
        #expect(sizes.sorted() == ["mp4 240x136", "mp4 480x270", "mp4 640x360", "webm 240x136", "webm 480x270", "webm 640x360"])
    }

    /// What phones and screen recorders make: (file, size, encoder arguments, audio, expected upright output size).
    static let shapes: [(String, String, [String], Bool, String)] = [
        ("iphone-hevc.mov", "320x180", ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error"], true, "180x320"),
        ("android.mp4", "180x320", [], true, "180x320"),
        ("screen-vfr.mp4", "148x320", ["-vf", "setpts='if(lt(mod(N,20),10),N/(30*TB),(N+mod(N,7))/(30*TB))'", "-fps_mode", "vfr"], false, "148x320"),
        ("vp9.webm", "320x240", ["-c:v", "libvpx-vp9", "-c:a", "libopus"], true, "320x240"),
    ]

    @Test("HEVC MOV with rotation, Android MP4, a variable-frame-rate screen recording and WebM all publish as H.264 MP4",
          arguments: 0..<shapes.count)
    func phoneShapes(_ index: Int) throws {
        let (name, size, encoder, audio, expected) = Self.shapes[index]
        let site = try VideoSite()
        defer { site.box.remove() }
        let folder = try site.post("2024-06-01-clip")
        let source = folder.appendingPathComponent(name)
        try MediaTools.clip(source, size: size, seconds: 1, audio: audio, extra: encoder)
        if name.hasSuffix(".mov") { try MediaTools.run("exiftool", ["-q", "-overwrite_original", "-Rotation=90", source.path]) }
        let (report, text) = try site.box.build()
        #expect(text == "" && report.published)
        let video = try #require(site.media.first { $0.pathExtension == "mp4" })
        let streams = try #require(MediaTools.probe(video)["streams"] as? [[String: Any]])
        #expect(streams.first?["codec_name"] as? String == "h264")
        #expect("\(streams.first?["width"] as? Int ?? 0)x\(streams.first?["height"] as? Int ?? 0)" == expected)
        #expect(streams.contains { $0["codec_type"] as? String == "audio" } == audio)
    }

    @Test("videos are processed longest first, and videos of one size in the site's order, the same in every build")
    func videoJobOrder() throws {
        let site = try VideoSite()
        defer { site.box.remove() }
        // Not probed here: only their sizes are read. Three of one size, one longer.
        for (id, bytes) in [("2024-01-01-a", 100), ("2024-01-02-b", 100), ("2024-01-03-c", 300), ("2024-01-04-d", 100)] {
            try Data(repeating: 7, count: bytes).write(to: try site.post(id).appendingPathComponent("1.mp4"))
        }
        var diagnostics = Diagnostics()
        let made = ContentLoader(siteRoot: site.box.site).load(diagnostics: &diagnostics)
        let loaded = try #require(made, "\(diagnostics.items)")
        let order = ImageStage.jobs(for: loaded).filter { $0.role == .video }.map { $0.source.path.split(separator: "/")[4] }
        #expect(order == ["2024-01-03-c", "2024-01-04-d", "2024-01-02-b", "2024-01-01-a"], "the longest, then newest first as the site lists them")
        for _ in 0..<5 { #expect(ImageStage.jobs(for: loaded).map(\.source.path) == ImageStage.jobs(for: loaded).map(\.source.path)) }
    }

    @Test("an AV1 WebM is made when configured, listed before the MP4")
    func av1() throws {
        let site = try VideoSite()
        defer { site.box.remove() }
        try site.box.write("site/content/site.yml", "videos:\n  webm: av1\n  preset: ultrafast\n")
        let folder = try site.post("2024-06-01-walk")
        try MediaTools.clip(folder.appendingPathComponent("1.mp4"), size: "320x180", seconds: 1, audio: true)
        let (report, text) = try site.box.build()
        #expect(text == "" && report.published)
        let webm = try #require(site.media.first { $0.pathExtension == "webm" })
        let streams = try #require(MediaTools.probe(webm)["streams"] as? [[String: Any]])
        #expect(streams.map { $0["codec_name"] as? String } == ["av1", "opus"])
        let post = try site.page("ann/p/2024-06-01-walk/index.html")
        let webmSource = try #require(post.range(of: "type=\"video/webm\""))
        let mp4Source = try #require(post.range(of: "type=\"video/mp4\""))
        #expect(webmSource.lowerBound < mp4Source.lowerBound)
    }

    @Test("without FFmpeg, a site with a video is an error naming it, and a site without videos builds")
    func missingFFmpeg() throws {
        let site = try VideoSite()
        defer { site.box.remove() }
        let folder = try site.post("2024-06-01-walk")
        try FileManager.default.copyItem(at: ContainmentTests.photo, to: folder.appendingPathComponent("1.jpg"))
        let build = { try TestSupport.build(site: site.box.site, output: site.box.output) { $0.toolSearchPath = "/nonexistent" } }
        #expect(try build().published)
        try MediaTools.clip(folder.appendingPathComponent("2.mp4"), size: "160x120", seconds: 1, audio: false)
        let report = try build()
        #expect(!report.published)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/users/ann/posts/2024-06-01-walk/2.mp4: error: \(FFmpegTools.missingMessage) — \(FFmpegTools.missingHint)",
        ])
    }
}
