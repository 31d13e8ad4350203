import Foundation
import GramgenCore
import Testing
@testable import GramgenContent

/// `videos:`, `max_video_seconds` and `max_video_megapixels` in site.yml.
struct VideoSettingsTests {
    private func load(_ yaml: String) throws -> (SiteConfig, [String]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("content"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(yaml.utf8).write(to: root.appendingPathComponent("content/site.yml"))
        var diagnostics = Diagnostics()
        let config = SiteConfigLoader.load(siteRoot: root, diagnostics: &diagnostics)
        return (config, diagnostics.sorted.map(\.description))
    }

    @Test("defaults: one 1080 MP4 at CRF 23, no WebM, 15 minutes, 9 megapixels")
    func defaults() throws {
        let (config, problems) = try load("title: x\n")
        #expect(problems.isEmpty)
        #expect(config.videos == VideoSettings())
        #expect(config.videos.sizes == [1080] && config.videos.quality == 23 && config.videos.webm == nil)
        #expect(config.maxVideoSeconds == 900 && config.maxVideoMegapixels == 9)
    }

    @Test("every key read")
    func keys() throws {
        let (config, problems) = try load("""
            videos:
              sizes: [720, 480, 720]
              quality: 28
              preset: slow
              audio_bitrate: 96
              webm: AV1
            max_video_seconds: 90
            max_video_megapixels: 2.1

            """)
        #expect(problems.isEmpty)
        #expect(config.videos.sizes == [480, 720] && config.videos.quality == 28 && config.videos.preset == "slow")
        #expect(config.videos.audioBitrate == 96 && config.videos.webm == .av1)
        #expect(config.maxVideoSeconds == 90 && config.maxVideoMegapixels == 2.1)
    }

    @Test("each mistake is an error at its line, saying what is allowed")
    func mistakes() throws {
        let (config, problems) = try load("""
            videos:
              sizes: [12, 720]
              quality: 60
              preset: turbo
              webm: h265
              colour: blue
            max_video_seconds: -1

            """)
        #expect(problems == [
            "content/site.yml:2:11: error: '12' is not a video size — use whole numbers from 64 to 4096 (the long side in pixels)",
            "content/site.yml:3:12: error: 'quality' must be a whole number from 0 to 51 — write for example `quality: 0`",
            "content/site.yml:4:11: error: unknown video preset 'turbo' — use one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow",
            "content/site.yml:5:9: error: unknown WebM codec 'h265' — use `webm: vp9`, `webm: av1` or leave the key out",
            "content/site.yml:6:3: warning: unknown key 'colour' — known keys: sizes, quality, preset, audio_bitrate, webm",
            "content/site.yml:7:20: error: 'max_video_seconds' must be a positive number — write for example `max_video_seconds: 900`",
        ])
        #expect(config.videos.sizes == [720])
    }
}
