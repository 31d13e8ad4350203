import Foundation
import GramgenContent
import GramgenCore
import GramgenImaging
import GramgenRender

/// `gramgen build`: a list of named steps run in order over one `BuildState` (as Publish does).
/// With `--verbose` each prints as `[i/n] name (0.123s)`. A step stops the build when there is
/// nothing left to do or errors were found (the loading steps all run first, so every problem of
/// the input is reported at once); a step's failure becomes a diagnostic in one place (`diagnostic(for:)`).
/// Any error stops the build before publishing, so the previous output stays as it was.
public struct BuildPipeline {
    let options: BuildOptions
    let console: Console
    /// What the last build of this process left to reuse (`gramgen serve`); nil for one build.
    let memory: BuildMemory?

    public init(options: BuildOptions, console: Console, memory: BuildMemory? = nil) {
        self.options = options
        self.console = console
        self.memory = memory
    }

    /// What a step tells the pipeline.
    enum Next { case next, stop }

    struct Step {
        let name: String
        let run: (BuildState) throws -> Next
    }

    /// The steps, in the order they run.
    static let steps: [Step] = [
        Step(name: "check", run: check),      // nothing changed since the last build: stop here (UpToDateCheck)
        Step(name: "load", run: load),        // content/ → Site, resolved and validated
        Step(name: "theme", run: theme),      // built-in templates and the site's own
        Step(name: "static", run: staticFiles), // static/, listed (copied when publishing)
        Step(name: "images", run: images),    // photos and videos processed, or taken from the cache
        Step(name: "render", run: render),    // pages and feeds, written as they are drawn (or taken over)
        Step(name: "publish", run: publish),  // media and static files; the new output swapped in
    ]

    public func run() -> BuildReport {
        run(evenIfUpToDate: false)
    }

    /// For `gramgen serve` after a start with nothing to build: a build that goes through even
    /// though the output is up to date (taking over every page), so that `memory` holds the site
    /// and the first edit is rebuilt as quickly as any other. Nil when memory is already warm.
    public func warmUp() -> BuildReport? {
        guard let memory else { return nil }
        memory.remember()
        guard memory.published == nil else { return nil }
        return run(evenIfUpToDate: true)
    }

    /// For `gramgen serve` after a build that left pages for later (`FastRender`): a build that
    /// draws them, leaving pages only once a change waits.
    public func catchUp() -> BuildReport {
        run(evenIfUpToDate: false, catchUp: true)
    }

    static let renderStep = steps.firstIndex { $0.name == "render" } ?? steps.count

    private func run(evenIfUpToDate: Bool, catchUp: Bool = false) -> BuildReport {
        memory?.settleForBuild()
        // A catch-up build draws from what the build before it loaded (nothing changed since,
        // or a change waits and its build follows), so it starts at rendering.
        let kept = catchUp ? memory?.takeLoaded() : nil
        let state = BuildState(options: options, console: console, memory: memory, continuing: kept)
        state.evenIfUpToDate = evenIfUpToDate
        state.catchUp = catchUp
        var threw = false
        for (index, step) in Self.steps.enumerated() where kept == nil || index >= Self.renderStep {
            // A catch-up build gives way to a change before it writes anything (its render stops
            // by itself, see `Publisher.stopsEarly`); the pages stay left for later.
            if catchUp, index < Self.renderStep, memory?.fastRender?.isChangeWaiting == true {
                state.report.stoppedForChange = true
                break
            }
            let start = Date()
            var next = Next.stop
            do {
                next = try step.run(state)
            } catch {
                state.publisher?.abandon()
                memory?.clear()
                threw = true
                state.report.diagnostics.append(diagnostic(for: error))
            }
            let seconds = Date().timeIntervalSince(start)
            state.report.stages.append(.init(name: step.name, seconds: seconds))
            console.detail(String(format: "[%d/%d] %@ (%.3fs)", index + 1, Self.steps.count, step.name, seconds))
            if next == .stop { break }
        }
        state.prefetch.wait()  // nothing read ahead outlives the build (one stopped before its images)
        state.writing.wait()
        Self.letGo(options.endsProcess ? state : state.handOver(), options, memory)
        // A build stopped by errors in the content leaves the pages left for later held: the
        // catch-up that follows draws them from what the last good build loaded. One that threw
        // (the disk) or a catch-up that failed leaves nothing to draw them from.
        if !state.report.published, threw || catchUp && !state.report.stoppedForChange { memory?.fastRender?.abandoned() }
        return state.report
    }

    /// A build's tables (the site, its renderer, its pages' records, the manifests, the image
    /// cache's index: a few hundred thousand objects at 10,000 posts) are not freed on its path.
    /// A one-off build leaves them for the process's end to free at once (one by one, after the
    /// site was published, they took a tenth of a second); a server frees them once the browser
    /// was told to reload (`BuildMemory.release`).
    static func letGo(_ object: Any, _ options: BuildOptions, _ memory: BuildMemory?) {
        guard options.endsProcess else {
            memory?.release(object)
            return
        }
        keptUntilExit.lock.withLock { keptUntilExit.objects.append(object) }
    }

    private final class Kept: @unchecked Sendable {
        let lock = NSLock()
        var objects: [Any] = []
    }

    private static let keptUntilExit = Kept()

    /// Why a step could not go on, as the user reads it: what failed and what to do.
    private func diagnostic(for error: Error) -> Diagnostic {
        switch error {
        case let error as ThemeError:
            return .error(SourceLocation("templates"), "cannot render the site: \(error)", hint: "check the templates in templates/")
        case let error as CacheFailure:
            return .error(SourceLocation(options.cacheDirectory.path), "cannot create the image cache: \(error.underlying.localizedDescription)",
                          hint: "check that the site folder is writable")
        default:
            return .error(SourceLocation(options.output.path), "cannot write the site: \(error.localizedDescription)",
                          hint: "check that the folder is writable and the disk has space; the previous output is unchanged")
        }
    }

    // MARK: The steps

    private static func check(_ state: BuildState) -> Next {
        let options = state.options
        let problems = OutputGuard.problems(options: options, manifestURL: state.upToDate.manifestURL)
        guard problems.isEmpty else {
            state.report.diagnostics.append(contentsOf: problems)
            return .stop
        }
        Leftovers(output: options.output).clean()
        state.loaded.checked = state.upToDate.check(trusted: state.memory?.published?.output, listings: state.memory?.contentListings())
        if let listings = state.memory?.listings { state.console.detail("  folders of content/: \(listings.read) read, the rest as the last build left them") }
        guard let record = state.loaded.checked?.upToDate, !state.evenIfUpToDate else { return .next }
        state.report.diagnostics.append(contentsOf: record.warnings)
        state.report.pageCount = record.pageCount
        state.report.fileCount = record.fileCount
        state.report.postCount = record.postCount
        state.report.userCount = record.userCount
        state.report.imagesFromCache = record.imageCount
        state.report.published = true
        state.report.upToDate = true
        return .stop
    }

    private static func load(_ state: BuildState) -> Next {
        let options = state.options
        // The image cache's index, the images kept on disk and the source digests are read on
        // another thread while the posts load, which none depends on (`images` waits for it):
        // 0.1 s of a one-off build at 10,000 posts (a server reads them for its first build only).
        if let cache = try? state.memory?.mediaCache(options.cacheDirectory) ?? MediaCache(directory: options.cacheDirectory) {
            state.loaded.cache = cache
            let (memo, file, salt, digests) = (state.imageMemo, state.imagesFile, state.keptSalt, state.digests)
            DispatchQueue.global().async(group: state.prefetch) {
                memo.restore(from: file, salt: salt, cache: cache)
                digests.preload()
            }
        }
        // A one-off build's two manifests of the output (60,000 lines each at 10,000 posts) are
        // read on another thread from here: started after the images were taken, they were still
        // being read when the pages were to be drawn (a core idle for 40 ms of a 0.6 s build).
        // A big site's when it publishes (held from here, they raised its peak memory): as the
        // last build into this output had it, since the posts are not loaded yet.
        if state.loaded.checked?.lastPostCount ?? 0 <= Self.bigSite { readManifestsAhead(state) }
        if state.memory == nil {
            let (memo, file, salt) = (state.searchMemo, state.searchFile, state.keptSalt)
            DispatchQueue.global().async(group: state.prefetch) { memo.restore(from: file, salt: salt) }
            state.fragmentMemo.restore(from: state.fragmentsFile, salt: salt)
        }
        // The stamps of the posts' and images' files, from the check's walk: two passes over the
        // 30,000 files of a big site, each on its own, beside the reading of the kept posts
        // (which ends on one thread, making their table). After it, the longer pass held one
        // core for 20 ms at 10,000 posts while the other waited. The images' are wanted only by
        // the image stage.
        let parallel = options.parallel
        let content = state.loaded.checked?.content
        let postStamps = content.map { content in parallel.ahead { BuildMemory.postStamps(content) } }
        state.imageStampsAhead = content.map { content in parallel.ahead { ImageMemo.stamps(content) } }
        state.loaded.checked?.content = nil
        let posts = state.postMemo
        let loader = ContentLoader(siteRoot: options.siteRoot,
                                   options: .init(includeDrafts: options.includeDrafts, baseURL: options.baseURL,
                                                  parallel: options.parallel, memo: posts,
                                                  namesChecked: state.loaded.checked?.contentNamesClean ?? false))
        // What the load reads before any post (site.yml, its texts, the user folders: 10 ms on
        // one thread) and the theme (its templates parsed: 10 ms), beside the reading of the kept
        // posts and the rest of the load, which ends on one thread (the site resolved).
        let start = parallel.ahead { loader.start() }
        let (siteRoot, lastTheme) = (options.siteRoot, state.memory?.theme)
        state.themeAhead = parallel.ahead { loadTheme(siteRoot: siteRoot, reusing: lastTheme) }
        posts.restore(from: state.postsFolder, salt: state.keptSalt, contentRoot: state.contentRoot,
                      parallel: options.parallel)
        if let postStamps {
            posts.use(listing: postStamps.value)
            // Its table (10,000 stamps), which the memo lets go of at the load's end, freed
            // where nobody waits (at the end of this step it took 9 ms of the build's thread).
            Self.letGo(postStamps, options, state.memory)
        }
        state.loaded.site = state.collect { loader.load(diagnostics: &$0, start: start.value) }
        (state.report.postsRead, state.report.postsKept, state.report.profilesKept) = (posts.read, posts.reused, posts.profilesReused)
        // The last load's tables: a server frees them where nobody waits; a one-off build of a
        // site that is not big at its end (dropped here, they were freed on the build's thread: 12
        // million instructions of a caption edit at 10,000 posts). A big site's are freed here
        // still: held, they keep its kept posts' records alive through the render, its peak.
        if let last = posts.takeRetired() {
            if state.memory != nil || posts.reused + posts.read <= Self.bigSite { Self.letGo(last, options, state.memory) }
        }
        if state.memory == nil {
            // A one-off build writes the posts it read anew now, on another thread, and then lets
            // go of them: they describe the folders as read, whatever the build does next. Held to
            // the end, the table of a build that read every post (the first after an upgrade:
            // 100,000 posts) was held through the render, the build's peak. Sorted out there too:
            // on this thread, the pass over every kept post held the images back while the other
            // core waited (8 ms at 10,000 posts).
            let (folder, salt, root) = (state.postsFolder, state.keptSalt, state.contentRoot)
            DispatchQueue.global().async(group: state.writing) {
                posts.save(to: folder, salt: salt, contentRoot: root)
                posts.keepOnlyWhatSaveWrites()
            }
        }
        state.console.detail("  posts: \(posts.read) read, \(posts.reused) as the last build left them; profiles: \(posts.profilesReused) as it left them")
        return .next
    }

    private static func theme(_ state: BuildState) -> Next {
        let (theme, found) = state.themeAhead?.value ?? loadTheme(siteRoot: state.options.siteRoot, reusing: state.memory?.theme)
        state.themeAhead = nil
        state.report.diagnostics.append(contentsOf: found.items)
        state.loaded.theme = theme
        state.report.themeKept = theme.reused
        state.memory?.theme = theme
        if let config = state.loaded.site?.config { state.report.diagnostics.append(contentsOf: Theme.languageProblems(config)) }
        return .next
    }

    /// The theme and what loading it found (`reusing`: the last build's, see `Theme.load`).
    private static func loadTheme(siteRoot: URL, reusing last: Theme?) -> (Theme, Diagnostics) {
        var diagnostics = Diagnostics()
        return (Theme.load(siteRoot: siteRoot, diagnostics: &diagnostics, reusing: last), diagnostics)
    }

    /// Starts reading the output's manifests on another thread (a one-off build's: in place, the
    /// preview's is this process's own).
    private static func readManifestsAhead(_ state: BuildState) {
        guard !state.options.publishInPlace, state.manifestsAhead == nil else { return }
        let spare = Spare(output: state.options.output, manifestURL: state.upToDate.manifestURL)
        state.manifestsAhead = state.options.parallel.ahead { spare.readAhead() }
    }

    /// Also where `--strict` turns the warnings so far into errors: what follows reads no more input files.
    private static func staticFiles(_ state: BuildState) -> Next {
        state.loaded.staticFiles = state.collect { StaticFiles(siteRoot: state.options.siteRoot, diagnostics: &$0).files }
        if state.options.strict { state.report.diagnostics = state.report.diagnostics.escalatingWarnings() }
        guard let site = state.loaded.site, !state.report.diagnostics.hasErrors else { return .stop }
        state.report.userCount = site.users.count
        state.report.postCount = site.posts.count
        return .next
    }

    private static func images(_ state: BuildState) throws -> Next {
        let options = state.options
        guard let site = state.loaded.site else { return .stop }
        // Read ahead from here when the load did not start it (a site that grew past the line).
        if !Self.isBig(site) { readManifestsAhead(state) }
        state.prefetch.wait()
        let cache: MediaCache
        do {
            cache = try state.loaded.cache ?? state.memory?.mediaCache(options.cacheDirectory) ?? MediaCache(directory: options.cacheDirectory)
        } catch {
            throw CacheFailure(underlying: error)
        }
        state.loaded.cache = cache
        // What the renderer makes of the site alone, on the other core while this one takes the
        // images (mostly alone: 40 ms at 10,000 posts, all taken from the last build).
        if state.loaded.renderer == nil, state.rendererAhead == nil {
            state.rendererAhead = options.parallel.ahead { SiteRenderer.Prepared(site) }
        }
        var stage = ImageStage(settings: site.config.images, config: site.config, cache: cache, digests: state.digests,
                               jobs: options.jobs, toolSearchPath: options.toolSearchPath, console: state.console)
        if let stamps = state.imageStampsAhead?.value { state.imageMemo.begin(stamps: stamps) }
        state.imageStampsAhead = nil
        stage.memo = state.imageMemo
        let result = stage.run(ImageStage.jobs(for: site), widening: site)
        state.report.imagesKept = state.imageMemo.reused
        state.report.imagesWhole = state.imageMemo.tookWhole
        state.imageMemo.finish()
        // A server frees the last build's tables after the reload; a one-off build at once (kept
        // to its end, they raised its peak memory).
        if let last = state.imageMemo.takeRetired() { state.memory?.release(last) }
        if state.memory == nil { state.imageMemo.keepOnlyWhatSaveWrites() }
        state.report.diagnostics.append(contentsOf: result.diagnostics.items)
        state.report.imagesProcessed = result.processed
        state.report.imagesFromCache = result.fromCache
        state.loaded.images = result
        if state.report.diagnostics.hasErrors { return .stop }
        let icons = state.collect { IconStage.icons(for: site, options: options, digests: state.digests, diagnostics: &$0) }
        state.loaded.webApp = WebApp(icons: icons, offline: site.config.offline && !options.includeDrafts && !options.publishInPlace)
        if state.memory == nil {
            // A one-off build writes the source digests now, on another thread, and lets go of
            // them: no step after the icons asks for one (they describe the source files, whatever
            // the build does next). Held to the end, at 100,000 posts their table and the file's
            // bytes (57 MB in heaptrack) were held through the render, the build's peak.
            let digests = state.digests
            DispatchQueue.global().async(group: state.writing) { digests.saveAndForget() }
        }
        return .next
    }

    private static func render(_ state: BuildState) throws -> Next {
        let options = state.options
        guard let site = state.loaded.site, let theme = state.loaded.theme, let cache = state.loaded.cache, let images = state.loaded.images else { return .stop }
        // Forgotten before anything is written, so a build that does not finish leaves nothing to trust.
        let kept = state.memory?.published
        state.memory?.published = nil
        // Compared by identity first: a table taken whole is the very one.
        if state.loaded.media == nil, let kept, kept.images == images.images {
            state.loaded.media = kept.media
            state.report.mediaKept = true
        }
        let publisher = try Publisher(options.publishInPlace ? .inPlace : .swap, output: options.output, cache: cache,
                                      staticFiles: state.loaded.staticFiles, manifestURL: state.upToDate.manifestURL, parallel: options.parallel,
                                      kept: options.publishInPlace ? kept?.manifest : nil, keptMedia: kept?.media.names,
                                      keptGroups: kept?.groups ?? [:], expectedFiles: Self.expectedFiles(state, site),
                                      later: state.memory?.fastRender.map {
                                          // A warm-up leaves nothing: no catch-up follows it.
                                          $0.choices(catchUp: state.catchUp || state.evenIfUpToDate,
                                                     partial: state.catchUp && options.publishInPlace && kept != nil)
                                      }, readAhead: state.manifestsAhead, keepsGroups: !options.publishInPlace && !Self.isBig(site))
        state.manifestsAhead = nil
        // The media files to publish (33,000 names at 10,000 posts) are gathered beside the
        // pages; a big site's, whose peak memory is the render's, after them.
        if state.loaded.media == nil, !Self.isBig(site) {
            let images = images.images
            state.mediaAhead = options.parallel.ahead { MediaFiles(images) }
        }
        state.publisher = publisher
        // A catch-up build draws from the same loaded site: the renderer it made (its indexes,
        // activity lists, input and page digests: 60 ms at 10,000 posts) serves again. Its
        // indexes and the input digests are made side by side (20 ms of one thread each).
        let renderer = state.loaded.renderer ?? {
            let (inputs, renderer) = options.parallel.both(
                { InputDigests.make(site: site, images: images.images, theme: theme, options: options) },
                { SiteRenderer(site: site, images: images.images, theme: theme, parallel: options.parallel, webApp: state.loaded.webApp,
                               prepared: state.rendererAhead?.value) })
            renderer.inputs = inputs
            return renderer
        }()
        state.loaded.renderer = renderer
        state.rendererAhead = nil
        // Up to this many posts the index is small; a bigger site's one-off build keeps it for the
        // end (its peak memory is the render's).
        // A catch-up build makes it after its pages: it stops for a change between any two of
        // them, and the index, once begun, would hold the change's build back.
        renderer.searchAhead = (state.memory != nil || !Self.isBig(site)) && !state.catchUp
        renderer.searchMemo = state.searchMemo
        renderer.fragments = state.fragmentMemo
        try renderer.render(into: publisher)
        // A big site's one-off build frees the renderer (its view caches, indexes and digests)
        // before publishing, whose records are written at the peak of the build's memory; a
        // smaller site's keeps it to the process's end, which frees it faster.
        if state.memory == nil, Self.isBig(site) { state.loaded.renderer = nil }
        return .next
    }

    /// How many files the output will hold, as the last build's record says, bounded by what the
    /// site could make (a record edited to say billions must not make the table that large).
    private static func expectedFiles(_ state: BuildState, _ site: Site) -> Int {
        min(state.loaded.checked?.lastFileCount ?? 0, 64 * (site.posts.count + site.users.count) + 100_000)
    }

    /// Posts above which a one-off build trades time for memory: the search index made after the
    /// pages, not beside them, and the renderer freed before publishing.
    private static func isBig(_ site: Site) -> Bool {
        site.posts.count > bigSite
    }

    /// Above this many posts a site is big (`isBig`).
    private static let bigSite = 20_000

    private static func publish(_ state: BuildState) throws -> Next {
        guard let publisher = state.publisher, let images = state.loaded.images, let cache = state.loaded.cache else { return .stop }
        // Made once for what was loaded: a catch-up build publishes the same set, which the
        // record then compares with the one it kept by identity, not by each of 33,000 names.
        let media = state.loaded.media ?? state.mediaAhead?.value ?? MediaFiles(images.images)
        state.loaded.media = media
        state.mediaAhead = nil
        state.memory?.dropPendingRecords()
        try publisher.finish(media: media)
        state.report.published = true
        // A catch-up that drew only pages left for later has its build's pages (its report's).
        if !publisher.partial { state.report.pageCount = publisher.pageCount }
        state.report.fileCount = publisher.fileCount
        state.report.pagesReused = publisher.reused
        state.report.groupsKept = publisher.groupsKept
        state.report.spareMediaTrusted = publisher.spareMediaTrusted
        state.report.spareMediaWhole = publisher.spareMediaWhole
        state.report.pagesDrawn = publisher.drawn
        state.report.pagesLeftForLater = publisher.leftForLater.count
        state.memory?.fastRender?.published(leftForLater: publisher.leftForLater)
        // The output is complete; what is left writes down what the build did and what the
        // next one may reuse. A process that keeps its memory runs it after it has told the
        // browser to reload (`BuildMemory.settle`).
        // With pages left for later the output is not what the inputs make: never up to date.
        let inputs = (publisher.leftForLater.isEmpty ? "" : OutputManifest.drawLater) + (state.loaded.checked?.inputs ?? "")
        let (report, digests, upToDate, memory, console) = (state.report, state.digests, state.upToDate, state.memory, state.console)
        let (posts, postsFolder, contentRoot, writing) = (state.postMemo, state.postsFolder, state.contentRoot, state.writing)
        let (imageMemo, imagesFile, salt, parallel) = (state.imageMemo, state.imagesFile, state.keptSalt, state.options.parallel)
        let (searchMemo, searchFile) = (state.searchMemo, state.searchFile)
        let (fragmentMemo, fragmentsFile) = (state.fragmentMemo, state.fragmentsFile)
        var output: String?
        let remember = {
            // With pages left for later the output is never up to date (the record's inputs say
            // so), and its digest, a pass over every file, would never be compared: a value no
            // digest equals. A build waits for this, and a catch-up follows every such build.
            output = publisher.leftForLater.isEmpty ? upToDate.output(published: publisher.publishedFiles) : OutputManifest.drawLater
            if let output, let manifest = publisher.published { memory?.published = .init(output: output, manifest: manifest, media: media, groups: publisher.groups,
                                                                                          images: images.images) }
        }
        let write = {
            let start = Date()
            defer { console.detail(String(format: "  records written (%.3fs)", Date().timeIntervalSince(start))) }
            // Files of their own each, on both threads (70 ms of one thread at 10,000 posts);
            // the record that says the build is complete, last. The source digests on the side
            // that does not write the manifest (and its groups' record): after it, their check of
            // the 10,000 kept entries (9 ms at 10,000 posts) kept the other core waiting. The kept
            // images (written when an image changed: 30 ms) with the manifest: after the source
            // digests they made that side the longer one.
            _ = parallel.both({
                publisher.saveManifest()
                imageMemo.save(to: imagesFile, salt: salt)
            }, {
                if memory != nil { digests.save() }  // a one-off build's after its images (`images`)
                posts.save(to: postsFolder, salt: salt, contentRoot: contentRoot)
                if memory == nil {
                    searchMemo.save(to: searchFile, salt: salt)
                    fragmentMemo.save(to: fragmentsFile, salt: salt)
                }
                cache.prune(keepingKeys: images.cacheKeys, files: images.replacedFiles.isEmpty ? media.names : media.names.union(images.replacedFiles),
                            filesDigest: images.replacedFiles.isEmpty ? media.filesDigest : nil)
            })
            writing.wait()  // the kept posts, when a one-off build wrote them after its load
            if let output { upToDate.save(report, inputs: inputs, output: output) }
        }
        if let memory {
            memory.afterReload(remember: remember, write: write, drop: { publisher.forgetRecord() })
        } else {
            remember()
            write()
        }
        // What the catch-up draws from; kept until a build publishes again (one stopped by
        // errors in the content does not), so it still draws what this build left.
        state.publisher = nil  // its records are the record keeping's, not the catch-up's
        letGo(publisher, state.options, state.memory)
        state.memory?.keepLoaded(publisher.leftForLater.isEmpty ? nil : (state.loaded, state.report))
        return .stop
    }
}

/// What the steps hand each other as the build goes.
final class BuildState {
    let options: BuildOptions
    let console: Console
    let upToDate: UpToDateCheck
    let digests: SourceDigests
    let memory: BuildMemory?
    var report = BuildReport()
    /// Go on when the output is up to date (`BuildPipeline.warmUp`).
    var evenIfUpToDate = false
    /// Draw the pages an earlier build left for later (`BuildPipeline.catchUp`).
    var catchUp = false
    var loaded = Loaded()
    var publisher: Publisher?
    /// What is read ahead on another thread while the posts load (`BuildPipeline.load`).
    let prefetch = DispatchGroup()
    /// Records written on another thread as the build goes on: a one-off build's kept posts,
    /// right after its load.
    let writing = DispatchGroup()
    /// The output's manifests, read while the images are taken (`BuildPipeline.images`).
    var manifestsAhead: Ahead<Spare.Manifests>?
    /// The stamps of the images' files, made while the posts load (`BuildPipeline.load`), for
    /// the image stage.
    var imageStampsAhead: Ahead<[String: [Int64]]>?
    /// The theme and what loading it found, loaded while the posts load (`BuildPipeline.load`).
    var themeAhead: Ahead<(Theme, Diagnostics)>?
    /// What the renderer makes of the site alone, made while the images are taken (`BuildPipeline.images`).
    var rendererAhead: Ahead<SiteRenderer.Prepared>?
    /// The media files to publish, gathered while the pages are drawn (`BuildPipeline.render`).
    var mediaAhead: Ahead<MediaFiles>?
    /// Posts and images as the last build left them: this process's (`gramgen serve`), or read
    /// from disk (`PostMemo+Disk.swift`, `ImageMemo+Disk.swift`).
    let postMemo: PostMemo
    let imageMemo: ImageMemo
    var imagesFile: String { options.cacheDirectory.appendingPathComponent("sources-memo").path }
    /// Each post's words in the search index: this process's, or read from disk by a one-off build.
    let searchMemo: SearchMemo
    var searchFile: String { options.cacheDirectory.appendingPathComponent("search-memo").path }
    /// The cards and tiles drawn: this process's, or the last build's from disk (`fragments`).
    let fragmentMemo: FragmentMemo
    var fragmentsFile: String { options.cacheDirectory.appendingPathComponent("fragments").path }
    /// What the kept posts and images are written under and read back only with: this gramgen
    /// (`UpToDateCheck.executableStamp`) and this very cache folder (its device and inode). Parsed
    /// captions are HTML published as they are: a cache that comes with a site from elsewhere
    /// (unpacked from an archive, copied) is in a folder of another inode, and none of it is
    /// trusted; its posts are read and sanitized again.
    var keptSalt: String {
        var info = stat()
        let folder = lstat(options.cacheDirectory.path, &info) == 0 ? "\(info.st_dev).\(info.st_ino)" : "none"
        return UpToDateCheck.executableStamp() + " " + folder
    }
    /// Where `postMemo` is kept on disk, and the `content/` its posts' URLs are made from.
    var postsFolder: URL { options.cacheDirectory.appendingPathComponent("posts") }
    var contentRoot: URL { options.siteRoot.appendingPathComponent("content") }

    /// What the steps before rendering make: a catch-up build renders it again, with the
    /// report of the build that loaded it (`BuildPipeline.catchUp`).
    struct Loaded {
        var checked: UpToDateCheck.Outcome?
        var site: Site?
        var theme: Theme?
        var staticFiles: [StaticFiles.File] = []
        var cache: MediaCache?
        var images: ImageStage.Result?
        var webApp = WebApp()
        /// The media files of `images` (`publish`).
        var media: MediaFiles?
        /// What draws the pages of all the above (`render`).
        var renderer: SiteRenderer?
    }

    /// `continuing`: what the build before loaded, and its report, to render again.
    init(options: BuildOptions, console: Console, memory: BuildMemory?, continuing kept: (Loaded, BuildReport)? = nil) {
        self.options = options
        self.console = console
        self.memory = memory
        postMemo = memory?.posts ?? PostMemo()
        imageMemo = memory?.images ?? ImageMemo(keepsWhole: false)
        searchMemo = memory?.search ?? SearchMemo()
        fragmentMemo = memory?.fragments ?? FragmentMemo(memoryBudget: FragmentMemo.oneOffMemory, dropsOldest: true)
        upToDate = UpToDateCheck(options: options)
        digests = memory?.sourceDigests(options.cacheDirectory) ?? SourceDigests(directory: options.cacheDirectory)
        if let (loaded, report) = kept {
            self.loaded = loaded
            self.report = report.continued()
        }
    }

    /// What the build holds, taken out of it (its report stays), for `BuildPipeline.letGo`.
    func handOver() -> Any {
        defer { (loaded, publisher) = (Loaded(), nil) }
        return (loaded, publisher)
    }

    /// Runs `body` with fresh diagnostics and adds them to the report.
    func collect<T>(_ body: (inout Diagnostics) -> T) -> T {
        var diagnostics = Diagnostics()
        let value = body(&diagnostics)
        report.diagnostics.append(contentsOf: diagnostics.items)
        return value
    }
}

/// The image cache folder could not be made.
struct CacheFailure: Error {
    let underlying: Error
}

/// The media files a build publishes, made on the core beside the pages: how many, and the digests
/// a manifest and the cache know them by, made in one pass; their names as a set only when asked
/// for (`names`). A one-off build after an edit publishes the very files its spare holds, which
/// it sees from the count and digest alone: the set of 40,000 names, each hashed, was 2% of the
/// instructions of a caption edit's build at 10,000 posts.
final class MediaFiles: @unchecked Sendable {
    /// How many names, each once.
    let count: Int
    /// `DigestBuilder.unordered(names)`: what a manifest knows its media section by.
    let namesDigest: UInt64
    /// `MediaCache.filesDigest(of:)` of the images they are the files of.
    let filesDigest: UInt64
    private let images: [String: ProcessedImage]
    private let lock = NSLock()
    private var made: Set<String>?

    /// `part`: `DigestBuilder.unorderedPart` (another in tests, to make two names share one).
    init(_ images: [String: ProcessedImage], part: (String) -> UInt64 = DigestBuilder.unorderedPart) {
        self.images = images
        // A name is counted once by its digest part; a part seen before is the same name (an
        // image published twice, a copied photo) or, were two names ever to share a part, the
        // set is made now and counted from.
        var byPart: [UInt64: String] = [:]
        byPart.reserveCapacity(images.count * 4)
        var (names, all, count, shared) = (UInt64(0), UInt64(0), 0, false)
        for image in images.values {
            _ = image.allFiles { name in
                let part = part(name)
                all &+= part
                if let seen = byPart.updateValue(name, forKey: part) {
                    if seen != name { shared = true }
                } else {
                    names &+= part
                    count += 1
                }
                return true
            }
        }
        filesDigest = all
        if shared {
            let set = Self.names(images)
            made = set
            self.count = set.count
            namesDigest = DigestBuilder.unordered(set)
        } else {
            self.count = count
            namesDigest = names
        }
    }

    /// The names, made the first time they are asked for.
    var names: Set<String> {
        lock.withLock {
            if let made { return made }
            let set = Self.names(images)
            made = set
            return set
        }
    }

    private static func names(_ images: [String: ProcessedImage]) -> Set<String> {
        var files = Set<String>(minimumCapacity: images.count * 4)
        for image in images.values { _ = image.allFiles { files.insert($0); return true } }
        return files
    }
}
