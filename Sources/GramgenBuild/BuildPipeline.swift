import Foundation
import GramgenContent
import GramgenCore
import GramgenImaging
import GramgenRender

/// `gramgen build`. The stages, in the order they run:
///   0. check    skip everything when nothing changed since the last build (UpToDateCheck)
///   1. load     content/ → Site (resolve & validate, with diagnostics)
///   2. theme    built-in templates + the site's overrides
///   3. images   variants, sizes, placeholders (cached across builds)
///   4. render   pages and feeds, each written into a temporary folder as it is drawn; a page
///               whose inputs did not change since the last build is linked from it instead
///   5. publish  media and static files, then the temporary folder is swapped in for the output
/// Any error stops the build before publishing, so the previous output stays as it was.
public struct BuildPipeline {
    let options: BuildOptions
    let console: Console

    public init(options: BuildOptions, console: Console) {
        self.options = options
        self.console = console
    }

    public func run() -> BuildReport {
        let clock = StageClock(console: console)
        var report = run(clock)
        report.stages = clock.stages
        return report
    }

    private func run(_ clock: StageClock) -> BuildReport {
        var report = BuildReport()
        let upToDate = UpToDateCheck(options: options)
        let problems = OutputGuard.problems(options: options, manifestURL: upToDate.manifestURL)
        guard problems.isEmpty else {
            report.diagnostics.append(contentsOf: problems)
            return report
        }
        Leftovers(output: options.output).clean()
        let checked = clock.run("check") { upToDate.check() }
        if let record = checked.upToDate {
            report.diagnostics.append(contentsOf: record.warnings)
            report.pageCount = record.pageCount
            report.fileCount = record.fileCount
            report.postCount = record.postCount
            report.userCount = record.userCount
            report.imagesFromCache = record.imageCount
            report.published = true
            report.upToDate = true
            return report
        }

        let site: Site? = clock.run("load") {
            var diagnostics = Diagnostics()
            let loader = ContentLoader(siteRoot: options.siteRoot,
                                       options: .init(includeDrafts: options.includeDrafts, baseURL: options.baseURL,
                                                      parallel: options.parallel))
            let site = loader.load(diagnostics: &diagnostics)
            report.diagnostics.append(contentsOf: diagnostics.items)
            return site
        }
        let theme = clock.run("theme") {
            var diagnostics = Diagnostics()
            let theme = Theme.load(siteRoot: options.siteRoot, diagnostics: &diagnostics)
            report.diagnostics.append(contentsOf: diagnostics.items)
            return theme
        }
        let staticFiles = clock.run("static") {
            var diagnostics = Diagnostics()
            let files = StaticFiles(siteRoot: options.siteRoot, diagnostics: &diagnostics).files
            report.diagnostics.append(contentsOf: diagnostics.items)
            return files
        }
        if options.strict { report.diagnostics = report.diagnostics.escalatingWarnings() }
        guard let site, !report.diagnostics.hasErrors else { return report }
        report.userCount = site.users.count
        report.postCount = site.posts.count

        let cache: MediaCache
        do {
            cache = try MediaCache(directory: options.cacheDirectory)
        } catch {
            report.diagnostics.error(SourceLocation(options.cacheDirectory.path), "cannot create the image cache: \(error.localizedDescription)",
                                     hint: "check that the site folder is writable")
            return report
        }
        let digests = SourceDigests(directory: options.cacheDirectory)
        let images = clock.run("images") {
            ImageStage(settings: site.config.images, config: site.config, cache: cache, digests: digests, jobs: options.jobs,
                       toolSearchPath: options.toolSearchPath, console: console)
                .run(ImageStage.jobs(for: site))
        }
        report.diagnostics.append(contentsOf: images.diagnostics.items)
        report.imagesProcessed = images.processed
        report.imagesFromCache = images.fromCache
        guard !report.diagnostics.hasErrors else { return report }

        let media = Set(images.images.values.flatMap(\.files))
        let publisher: Publisher
        do {
            publisher = try Publisher(options.publishInPlace ? .inPlace : .swap, output: options.output, cache: cache,
                                      staticFiles: staticFiles, manifestURL: upToDate.manifestURL, parallel: options.parallel)
        } catch {
            report.diagnostics.error(SourceLocation(options.output.path), "cannot write the site: \(error.localizedDescription)",
                                     hint: "check that the folder is writable and the disk has space; the previous output is unchanged")
            return report
        }
        let rendered: Bool = clock.run("render") {
            do {
                let inputs = InputDigests.make(site: site, images: images.images, options: options)
                try SiteRenderer(site: site, images: images.images, theme: theme, inputs: inputs,
                                 parallel: options.parallel).render(into: publisher)
                return true
            } catch let error as ThemeError {
                report.diagnostics.error(SourceLocation("templates"), "cannot render the site: \(error)",
                                         hint: "check the templates in templates/")
            } catch {
                report.diagnostics.error(SourceLocation(options.output.path), "cannot write the site: \(error.localizedDescription)",
                                         hint: "check that the folder is writable and the disk has space; the previous output is unchanged")
            }
            publisher.abandon()
            return false
        }
        guard rendered else { return report }

        clock.run("publish") {
            do {
                try publisher.finish(media: media)
                report.published = true
            } catch {
                publisher.abandon()
                report.diagnostics.error(SourceLocation(options.output.path), "cannot write the site: \(error.localizedDescription)",
                                         hint: "check that the folder is writable and the disk has space; the previous output is unchanged")
            }
        }
        report.pageCount = publisher.pageCount
        report.fileCount = publisher.fileCount
        report.pagesReused = publisher.reused
        if report.published {
            digests.save()
            cache.prune(keepingKeys: images.cacheKeys, files: media)
            upToDate.save(report, inputs: checked.inputs, published: publisher.publishedFiles)
        }
        return report
    }
}

/// Times each named stage; `--verbose` prints them as `[i] name 0.123s`.
final class StageClock {
    let console: Console
    private(set) var stages: [BuildReport.Stage] = []

    init(console: Console) { self.console = console }

    @discardableResult
    func run<T>(_ name: String, _ body: () -> T) -> T {
        let start = Date()
        let value = body()
        let seconds = Date().timeIntervalSince(start)
        stages.append(.init(name: name, seconds: seconds))
        console.detail(String(format: "[%d] %@ %.3fs", stages.count, name, seconds))
        return value
    }
}
