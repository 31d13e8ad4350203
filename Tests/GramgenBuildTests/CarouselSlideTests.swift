import Foundation
import GramgenContent
import GramgenCore
import GramgenImaging
import Testing
@testable import GramgenBuild

/// A carousel takes its first photo's shape and crops the others to it. A slide wider than that
/// shape is drawn wider than the carousel, so its files and `sizes` must be wider too, or a 2×
/// screen gets an upscaled slide.
struct CarouselSlideTests {
    @Test("a slide cropped to a narrower carousel gets files as wide as it is drawn, and sizes that say so")
    func wideSlide() throws {
        let site = try TestSupport.temporaryFolder("gramgen-carousel")
        let output = site.appendingPathComponent("public")
        defer { try? FileManager.default.removeItem(at: site) }
        // Square first (the carousel's shape), then a 2.4:1 panorama (drawn 2.4 times as wide as
        // the carousel), then a portrait (drawn as wide as the carousel, cropped top and bottom).
        try Self.makeShapes(site)
        let report = try TestSupport.build(site: site, output: output)
        #expect(report.published, "\(report.diagnostics.items)")

        let page = try String(contentsOf: output.appendingPathComponent("ann/p/2024-01-01-shapes/index.html"), encoding: .utf8)
        let images = page.components(separatedBy: "<li class=\"slide\"").dropFirst().map { slide in
            (widths: Self.widths(inSrcset: slide), sizes: Self.attribute("sizes", in: slide))
        }
        try #require(images.count == 3)
        #expect(images[0].widths == [320, 640])
        #expect(images[0].sizes == "(min-width: 640px) 600px, 100vw")
        // Its own 320 and 640, then the widest (640, under the 1200 a 600 px carousel needs at 2×)
        // scaled by 2.4: the panorama's 1000 px of height fill a 640 px wide square.
        #expect(images[1].widths == [320, 640, 1536])
        #expect(images[1].sizes == "(min-width: 640px) 1440px, 240vw")
        #expect(images[2].widths == [320, 640])
        #expect(images[2].sizes == "(min-width: 640px) 600px, 100vw")
    }

    /// The fixture of `wideSlide`: a square, a 2.4:1 panorama and a portrait in one carousel.
    static func makeShapes(_ site: URL) throws {
        let post = site.appendingPathComponent("content/users/ann/posts/2024-01-01-shapes")
        try FileManager.default.createDirectory(at: post, withIntermediateDirectories: true)
        try Data("images:\n  widths: [320, 640]\n  formats: [jpeg]\n  thumbnail: 160\n".utf8)
            .write(to: site.appendingPathComponent("content/site.yml"))
        try Data("Three shapes\n".utf8).write(to: post.appendingPathComponent("post.md"))
        for (name, width, height) in [("1.jpg", 800, 800), ("2.jpg", 2400, 1000), ("3.jpg", 800, 1200)] {
            try SyntheticImage.gradientJPEG(width: width, height: height, from: .init(200, 40, 10), to: .init(10, 90, 220))
                .write(to: post.appendingPathComponent(name))
        }
    }

    @Test("a wide slide's job is known once both its image and its carousel's first are, whichever comes last")
    func wideSlideJobs() throws {
        let site = try TestSupport.temporaryFolder("gramgen-carousel")
        defer { try? FileManager.default.removeItem(at: site) }
        try Self.makeShapes(site)
        var diagnostics = Diagnostics()
        let made = ContentLoader(siteRoot: site).load(diagnostics: &diagnostics)
        let loaded = try #require(made, "\(diagnostics.items)")
        let slides = try #require(ImageStage.WideSlides(site: loaded, settings: loaded.config.images))
        let paths = loaded.posts[0].images.map(\.path)
        func image(_ width: Int, _ height: Int) -> ProcessedImage {
            ProcessedImage(width: width, height: height, variants: [], squares: [], focusX: 0.5, focusY: 0.5,
                           dominantColor: "#000000", placeholder: "")
        }
        // As the first pass makes them: each stops at the widest width, 640.
        let firstPass = [paths[0]: image(640, 640), paths[1]: image(640, 267), paths[2]: image(640, 960)]
        func describe(_ jobs: [ImageStage.Job]) -> [String] { jobs.map { "\($0.source.path) \($0.slideScale ?? 0)" } }
        let expected = ["\(paths[1]) 2.4"]
        // The first picture last: its slides' jobs come with it.
        var images = firstPass.filter { $0.key != paths[0] }
        #expect(slides.jobs(in: images).isEmpty)
        #expect(describe(slides.jobs(after: paths[1], in: images)).isEmpty, "no first yet")
        images[paths[0]] = firstPass[paths[0]]
        #expect(describe(slides.jobs(after: paths[0], in: images)) == expected)
        // The panorama last: its own job comes with it, once.
        images = firstPass.filter { $0.key != paths[1] }
        #expect(slides.jobs(after: paths[0], in: images).isEmpty)
        images[paths[1]] = firstPass[paths[1]]
        #expect(describe(slides.jobs(after: paths[1], in: images)) == expected)
        #expect(slides.jobs(after: paths[2], in: images).isEmpty, "the portrait is drawn as wide as the carousel")
        // Both known from the start (taken from memory): found in one look.
        #expect(describe(slides.jobs(in: firstPass)) == expected)
        // A slide that stopped short of the widest width has nothing more to give.
        images[paths[1]] = image(600, 250)
        #expect(slides.jobs(in: images).isEmpty)
    }

    @Test("a rebuild takes every image whole from the last build, the wide slide's second pass included")
    func wideSlideRebuildWhole() throws {
        let site = try TestSupport.temporaryFolder("gramgen-carousel")
        let output = site.appendingPathComponent("public"), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, cache) }
        try Self.makeShapes(site)
        let first = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(first.published && first.imagesProcessed == 3, "\(first.diagnostics.items)")
        let page = output.appendingPathComponent("ann/p/2024-01-01-shapes/index.html")
        let before = try Data(contentsOf: page)
        try Data("Three shapes, edited\n".utf8).write(to: site.appendingPathComponent("content/users/ann/posts/2024-01-01-shapes/post.md"))
        let second = try TestSupport.build(site: site, output: output, cache: cache)
        #expect(second.published && second.imagesProcessed == 0)
        #expect(second.imagesWhole, "the first pass's keys with the second pass's entries beside them")
        let after = try String(contentsOf: page, encoding: .utf8)
        #expect(after.contains("1536w") && after.contains("edited"))
        #expect(String(decoding: before, as: UTF8.self).replacingOccurrences(of: "Three shapes", with: "") ==
                after.replacingOccurrences(of: "Three shapes, edited", with: ""))
    }

    @Test("a slide's one extra width is its scale times the carousel at 2× (or the widest width), capped at the source's own")
    func sourceWidthCapsScaledWidths() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("slide-\(UUID()).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try SyntheticImage.gradientJPEG(width: 1000, height: 400, from: .init(0, 0, 0), to: .init(255, 255, 255)).write(to: url)
        var settings = ImageSettings()
        settings.widths = [320, 640]
        settings.formats = [.jpeg]
        let plain = try ImageProcessor(settings: settings).process(url, role: .post).0
        #expect(plain.variants.map(\.width) == [320, 640])
        // Scaled by 2: 640 becomes 1280, made only up to the source's own 1000.
        let slide = try ImageProcessor(settings: settings.forSlide(scale: 2)).process(url, role: .post).0
        #expect(slide.variants.map(\.width) == [1000])
        #expect(settings.forSlide(scale: 3).widths == [1920])
        // The defaults (widest 1440): the carousel's 600 px at 2×, scaled, not 1440 scaled.
        #expect(ImageSettings().forSlide(scale: 2.14).widths == [2568])
        #expect(ImageSettings().forSlide(scale: 1.1).widths == [1440])
        // The plain settings' cache key is what it was before slides had a scale.
        #expect(!String(decoding: MediaCache.fingerprint(settings), as: UTF8.self).contains("slide"))
    }

    @Test("the slide scale: wider slides scale, narrower ones do not, and the scale stops at its maximum")
    func scale() {
        func image(_ width: Int, _ height: Int) -> ProcessedImage {
            ProcessedImage(width: width, height: height, variants: [], squares: [], focusX: 0.5, focusY: 0.5,
                           dominantColor: "#000000", placeholder: "")
        }
        #expect(image(1440, 675).slideScale(inBoxOf: image(1080, 1080)) == 2.14)
        #expect(image(1080, 1350).slideScale(inBoxOf: image(1080, 1080)) == 1)
        #expect(image(1080, 1080).slideScale(inBoxOf: image(1080, 1081)) == 1)
        #expect(image(4000, 500).slideScale(inBoxOf: image(1080, 1080)) == ProcessedImage.maxSlideScale)
    }

    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: " \(name)=\"") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    static func widths(inSrcset html: String) -> [Int] {
        guard let img = html.range(of: "<img ") else { return [] }
        let srcset = attribute("srcset", in: String(html[img.lowerBound...])) ?? ""
        return srcset.split(separator: ",").compactMap { candidate in
            candidate.split(separator: " ").last.flatMap { Int($0.dropLast()) }
        }
    }
}
