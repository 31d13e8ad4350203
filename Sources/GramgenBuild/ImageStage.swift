import Foundation
import GramgenCore
import GramgenImaging

/// Stage 3: every image and video of the site processed (or found in the cache), on `jobs`
/// threads. Videos go first (each is an FFmpeg child process), so the photos fill the time
/// around the longest work instead of leaving it alone at the end.
struct ImageStage {
    struct Job {
        var source: ImageSource
        var role: ImageRole
        /// Set for a carousel slide's second pass (`WideSlides`): the scale it is drawn at.
        var slideScale: Double?
    }

    struct Result {
        var images: [String: ProcessedImage] = [:]
        var diagnostics = Diagnostics()
        var processed = 0
        var fromCache = 0
        var cacheKeys: Set<String> = []
        /// Cached files the second pass made but the site does not show (`WideSlides`): not
        /// published, but kept, so the next build finds that pass cached too.
        var replacedFiles: Set<String> = []

        /// The slide at `path` keeps its first-pass files and gains the wider ones of its second
        /// pass (its tile and colours stay the first pass's; that pass's own tile is cached but
        /// not published).
        mutating func widen(_ path: String, with extra: ProcessedImage) {
            guard var image = images[path] else { return }
            replacedFiles.formUnion(Set(extra.files).subtracting(extra.variants.map(\.file)))
            image.variants = (image.variants + extra.variants.filter { $0.width > image.width })
                .sorted { $0.width != $1.width ? $0.width < $1.width : $0.format.rawValue < $1.format.rawValue }
            if let widest = image.variants.last { image.width = widest.width; image.height = widest.height }
            images[path] = image
        }
    }

    /// The second pass: a carousel slide wider than the carousel's shape is drawn wider than the
    /// carousel (`ProcessedImage.slideScale`), so it is made again at its scaled widths, from as
    /// many of the source's pixels as that needs. Only slides whose largest file stopped at the
    /// widest configured width can have more to give. A slide's job is known once both its own
    /// image and its carousel's first are.
    struct WideSlides {
        let widest: Int
        /// Each photo slide and its carousel's first picture's path, by the slide's path.
        private var firstOf: [String: (slide: ImageSource, first: String)] = [:]
        /// Each carousel's photo slides, by its first picture's path.
        private var slidesOf: [String: [ImageSource]] = [:]

        init?(site: Site, settings: ImageSettings) {
            guard let widest = settings.widths.max() else { return nil }
            self.widest = widest
            for post in site.posts where post.repostOf == nil && post.images.count > 1 {
                let first = post.images[0].path
                let photos = post.images.dropFirst().filter { !$0.isVideo }
                for slide in photos { firstOf[slide.path] = (slide, first) }
                if !photos.isEmpty { slidesOf[first, default: []].append(contentsOf: photos) }
            }
            if slidesOf.isEmpty { return nil }
        }

        /// The jobs of every slide whose image and carousel's first image are both in `images`.
        func jobs(in images: [String: ProcessedImage]) -> [Job] {
            slidesOf.flatMap { first, slides in
                images[first].map { first in slides.compactMap { job(for: $0, in: images, first: first) } } ?? []
            }
        }

        /// The jobs `path`'s image, just added to `images`, completes: its own when it is a slide
        /// whose carousel's first is known, its slides' when it is a carousel's first.
        func jobs(after path: String, in images: [String: ProcessedImage]) -> [Job] {
            var jobs: [Job] = []
            if let (slide, firstPath) = firstOf[path], let first = images[firstPath],
               let job = job(for: slide, in: images, first: first) {
                jobs.append(job)
            }
            if let slides = slidesOf[path], let first = images[path] {
                jobs += slides.compactMap { job(for: $0, in: images, first: first) }
            }
            return jobs
        }

        private func job(for source: ImageSource, in images: [String: ProcessedImage], first: ProcessedImage) -> Job? {
            guard let image = images[source.path], image.width >= widest else { return nil }
            let scale = image.slideScale(inBoxOf: first)
            return scale > 1 ? Job(source: source, role: .post, slideScale: scale) : nil
        }
    }

    var settings: ImageSettings
    /// What the progress line calls the work (by default, images or images and videos).
    var progressLabel: String?
    let config: SiteConfig
    let cache: MediaCache
    let digests: SourceDigests
    let jobs: Int
    let toolSearchPath: String?
    let console: Console
    /// Images as the last build of this process found them (`gramgen serve`).
    var memo: ImageMemo?

    static func jobs(for site: Site) -> [Job] {
        let count = site.users.count + site.posts.reduce(0) { $0 + $1.images.count }
        // Each source once. A post's photos are files of its own folder and an avatar a file
        // right in its user's folder (a plain name: `References.fileNameProblem`), so only a
        // post's own list (`images:`) can name one twice: no table of every path (10,000 at
        // 10,000 posts, made on one thread while the other core waited) is needed to see it.
        var jobs: [Job] = []
        jobs.reserveCapacity(count)
        for user in site.users {
            if let avatar = user.avatar { jobs.append(Job(source: avatar, role: .avatar)) }
        }
        var videos: [Job] = []
        for post in site.posts {
            let images = post.images
            for (index, image) in images.enumerated() where !images[..<index].contains(where: { $0.path == image.path }) {
                if image.isVideo {
                    videos.append(Job(source: image, role: .video))
                } else {
                    jobs.append(Job(source: image, role: .post))
                }
            }
        }
        // Most sites have no video: their jobs as gathered (joined to an empty list, all 10,000
        // were copied, a retain of each of their texts, and the first list freed, on one thread
        // while the other core waited).
        if videos.isEmpty { return jobs }
        // Longest first (by size, which follows length): the last worker to finish then has the
        // shortest video left, not the longest. Videos of the same size stay in the site's order,
        // so the jobs come in the same order build after build (`ImageMemo.lookupWhole`).
        let sized = videos.enumerated().map { (size: Self.size(of: $1.source.fileURL), index: $0, job: $1) }
        return sized.sorted { $0.size != $1.size ? $0.size > $1.size : $0.index < $1.index }.map(\.job) + jobs
    }

    private static func size(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Processes `work`; with `site`, also each carousel slide wider than its carousel
    /// (`WideSlides`), as soon as its carousel's first picture and its own first-pass image are
    /// known, ahead of the rest of the queue, so no core waits at the end for a second pass.
    func run(_ work: [Job], widening site: Site? = nil) -> Result {
        let processor = ImageProcessor(settings: settings)
        let fingerprint = MediaCache.fingerprint(settings)
        let videoFingerprint = MediaCache.fingerprint(settings, videos: config.videos)
        let hasVideos = work.contains { $0.role == .video }
        let tools = hasVideos ? FFmpegTools.find(searchPath: toolSearchPath) : nil
        let videos = tools.map {
            VideoProcessor(settings: config.videos, maxSeconds: config.maxVideoSeconds,
                           maxMegapixels: config.maxVideoMegapixels, tools: $0, images: processor,
                           log: { [console] in console.detail("  " + $0) })
        }
        let label = progressLabel ?? (hasVideos ? "Processing images and videos" : "Processing images")
        let lock = NSCondition()
        var result = Result()
        result.images.reserveCapacity(work.count)
        let started = Date()
        // What the last build of this process found, taken in one pass; the rest is looked up.
        let remembered = memo.map { takeRemembered(work, fingerprints: (fingerprint, videoFingerprint), into: &result, memo: $0) }
        let pending = remembered?.pending ?? work
        let slides = site.flatMap { WideSlides(site: $0, settings: settings) }
        // Wide slides waiting, taken before `pending`; their images, added to the slides' at the end.
        var wide = slides?.jobs(in: result.images) ?? []
        var wideImages: [String: ProcessedImage] = [:]
        var total = work.count + wide.count
        if pending.isEmpty, wide.isEmpty, !work.isEmpty { console.progress(label, done: work.count, total: work.count, started: started) }
        var next = 0
        var done = work.count - pending.count
        // Jobs being worked on: while any is, a worker with nothing to take waits for the wide
        // slides it may bring, so the last of them do not run one at a time.
        var running = 0
        let workers = max(1, min(jobs, pending.count * (slides == nil ? 1 : 2) + wide.count))
        DispatchQueue.concurrentPerform(iterations: pending.isEmpty && wide.isEmpty ? 0 : workers) { _ in
            while true {
                lock.lock()
                while wide.isEmpty, next >= pending.count, running > 0 { lock.wait() }
                let job: Job
                if let first = wide.popLast() {
                    job = first
                } else if next < pending.count {
                    job = pending[next]
                    next += 1
                } else {
                    lock.unlock()
                    return
                }
                running += 1
                lock.unlock()
                let outcome = if let scale = job.slideScale {
                    processWide(job, scale: scale, budget: processor.budget)
                } else if job.role == .video {
                    processVideo(job, processor: videos, fingerprint: videoFingerprint)
                } else {
                    process(job, processor: processor, fingerprint: fingerprint)
                }
                lock.lock()
                switch outcome {
                case .success(let (image, key, cached)):
                    result.cacheKeys.insert(key)
                    if job.slideScale != nil {
                        // Counted once, by the first pass: the report counts images, not passes.
                        wideImages[job.source.path] = image
                    } else {
                        result.images[job.source.path] = image
                        if cached { result.fromCache += 1 } else { result.processed += 1 }
                        let more = slides?.jobs(after: job.source.path, in: result.images) ?? []
                        wide.append(contentsOf: more)
                        total += more.count
                    }
                case .failure(let problem):
                    result.diagnostics.error(SourceLocation(job.source.path), problem.message, hint: problem.hint)
                }
                done += 1
                running -= 1
                let count = done, all = total, processedAny = result.processed > 0
                lock.broadcast()
                lock.unlock()
                if processedAny || count == all {
                    console.progress(label, done: count, total: all, started: started)
                }
            }
        }
        // Every key found or made: what the next build takes whole or around its changes.
        if let memo, let keys = remembered?.keys { memo.keepWhole(keys, images: result.images, cacheKeys: result.cacheKeys) }
        for (path, extra) in wideImages { result.widen(path, with: extra) }
        return result
    }

    /// A wide slide's files at its scale (`ImageSettings.forSlide`): looked up in what the last
    /// build of this process found, else as any image, from the cache or made.
    private func processWide(_ job: Job, scale: Double, budget: DecodeBudget) -> Outcome {
        let settings = settings.forSlide(scale: scale)
        let fingerprint = MediaCache.fingerprint(settings)
        if let memo, let entry = memo.lookup([ImageMemo.Key(path: job.source.path, role: job.role,
                                                            fingerprint: ImageMemo.Key.digest(fingerprint))])[0] {
            digests.keep(keys: [entry.sourceKey])
            return .success((entry.image, entry.cacheKey, true))
        }
        return process(job, processor: ImageProcessor(settings: settings, budget: budget), fingerprint: fingerprint)
    }

    private typealias Outcome = Swift.Result<(ProcessedImage, String, Bool), ImageProblem>

    private func process(_ job: Job, processor: ImageProcessor, fingerprint: Data) -> Outcome {
        cached(job, fingerprint: fingerprint) { key in
            let (image, files) = try processor.process(job.source.fileURL, role: job.role)
            try cache.store(key, image: image, files: files)
            return image
        }
    }

    /// A video: FFmpeg's files are made in a work folder of the cache and moved into it; a line
    /// on the console names each video transcoded, with its length, as it finishes.
    private func processVideo(_ job: Job, processor: VideoProcessor?, fingerprint: Data) -> Outcome {
        guard let processor else {
            return .failure(ImageProblem(message: FFmpegTools.missingMessage, hint: FFmpegTools.missingHint))
        }
        return cached(job, fingerprint: fingerprint) { key in
            let started = Date()
            let work = try cache.makeWorkFolder()
            defer { try? FileManager.default.removeItem(at: work) }
            let (image, files, videos) = try processor.process(job.source.fileURL, workFolder: work)
            try cache.store(key, image: image, files: files, moving: videos)
            if let video = image.video {
                console.info(String(format: "Video %@ (%@, %d×%d) transcoded in %.1fs", job.source.path, video.durationText,
                                    video.width, video.height, Date().timeIntervalSince(started)))
            }
            return image
        }
    }

    /// Puts into `result` what `memo` holds for the jobs whose files are unchanged (their source
    /// digests kept as if looked at); returns the other jobs, and every job's key in the memo.
    private func takeRemembered(_ work: [Job], fingerprints: (image: Data, video: Data), into result: inout Result,
                                memo: ImageMemo) -> (pending: [Job], keys: [ImageMemo.Key]) {
        let settings = (image: ImageMemo.Key.digest(fingerprints.image), video: ImageMemo.Key.digest(fingerprints.video))
        let keys = work.map { ImageMemo.Key(path: $0.source.path, role: $0.role, fingerprint: $0.role == .video ? settings.video : settings.image) }
        // The same images as the last build's, every file unchanged: its result in one piece.
        if let whole = memo.lookupWhole(keys) {
            result.images = whole.images
            result.cacheKeys = whole.cacheKeys
            result.fromCache += keys.count
            digests.keep(keys: whole.sourceKeys)
            return ([], keys)
        }
        // A new post's images among the last build's, every other file unchanged: its result
        // with the few in between looked up (10,100 look-ups and insertions were a third of a
        // new post's image stage).
        var (look, lookKeys, kept) = (work[...], keys[...], [String]())
        if let (whole, prefix, suffix, cacheKeys) = memo.lookupAround(keys) {
            result.images = whole.images
            result.cacheKeys = cacheKeys
            for key in whole.keys[prefix..<(whole.keys.count - suffix)] { result.images[key.path] = nil }
            result.fromCache += prefix + suffix
            kept = Array(whole.sourceKeys[..<prefix] + whole.sourceKeys[(whole.keys.count - suffix)...])
            (look, lookKeys) = (work[prefix..<(work.count - suffix)], keys[prefix..<(keys.count - suffix)])
        }
        let found = memo.lookup(Array(lookKeys))
        var pending: [Job] = []
        kept.reserveCapacity(kept.count + look.count)
        for (job, entry) in zip(look, found) {
            guard let entry else {
                pending.append(job)
                continue
            }
            result.images[job.source.path] = entry.image
            result.cacheKeys.insert(entry.cacheKey)
            result.fromCache += 1
            kept.append(entry.sourceKey)
        }
        digests.keep(keys: kept)
        return (pending, keys)
    }

    /// The cached result for the job's source and settings, or what `make` makes (and stores)
    /// under its key; remembered for the next build of this process.
    private func cached(_ job: Job, fingerprint: Data, make: (String) throws -> ProcessedImage) -> Outcome {
        let outcome = lookUpOrMake(job, fingerprint: fingerprint, make: make)
        if let memo, case .success(let (image, key, _)) = outcome {
            memo.remember(ImageMemo.Key(path: job.source.path, role: job.role, fingerprint: ImageMemo.Key.digest(fingerprint)),
                          image: image, cacheKey: key, source: job.source.fileURL)
        }
        return outcome
    }

    private func lookUpOrMake(_ job: Job, fingerprint: Data, make: (String) throws -> ProcessedImage) -> Outcome {
        let digest: String
        do {
            digest = try digests.digest(of: job.source.fileURL)
        } catch {
            return .failure(ImageProblem(message: "cannot read the file: \(error.localizedDescription)",
                                         hint: "check that the file exists and is readable"))
        }
        let key = MediaCache.key(sourceDigest: digest, fingerprint: fingerprint, role: job.role)
        // The last build's image of the same bytes and settings, its files still in the cache.
        if let kept = memo?.image(cacheKey: key), cache.haveFiles([kept]) == [true] { return .success((kept, key, true)) }
        if let cached = cache.lookup(key) { return .success((cached, key, true)) }
        do {
            return .success((try make(key), key, false))
        } catch let problem as ImageProblem {
            return .failure(problem)
        } catch {
            return .failure(ImageProblem(message: "cannot store the processed file: \(error.localizedDescription)",
                                         hint: "check that the cache folder is writable and the disk has space"))
        }
    }
}
