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
    }

    struct Result {
        var images: [String: ProcessedImage] = [:]
        var diagnostics = Diagnostics()
        var processed = 0
        var fromCache = 0
        var cacheKeys: Set<String> = []
        /// Cached files the second pass made but the site does not show (`widenCroppedSlides`): not
        /// published, but kept, so the next build finds that pass cached too.
        var replacedFiles: Set<String> = []
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
        var seen = Set<String>()
        var jobs: [Job] = []
        for user in site.users {
            if let avatar = user.avatar, seen.insert(avatar.path).inserted { jobs.append(Job(source: avatar, role: .avatar)) }
        }
        var videos: [Job] = []
        for post in site.posts {
            for image in post.images where seen.insert(image.path).inserted {
                if image.isVideo {
                    videos.append(Job(source: image, role: .video))
                } else {
                    jobs.append(Job(source: image, role: .post))
                }
            }
        }
        // Longest first (by size, which follows length): the last worker to finish then has the
        // shortest video left, not the longest. Videos of the same size stay in the site's order,
        // so the jobs come in the same order build after build (`ImageMemo.lookupWhole`).
        let sized = videos.enumerated().map { (size: Self.size(of: $1.source.fileURL), index: $0, job: $1) }
        return sized.sorted { $0.size != $1.size ? $0.size > $1.size : $0.index < $1.index }.map(\.job) + jobs
    }

    private static func size(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    func run(_ work: [Job]) -> Result {
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
        let lock = NSLock()
        var result = Result()
        result.images.reserveCapacity(work.count)
        let started = Date()
        // What the last build of this process found, taken in one pass; the rest is looked up.
        let remembered = memo.map { takeRemembered(work, fingerprints: (fingerprint, videoFingerprint), into: &result, memo: $0) }
        let pending = remembered?.pending ?? work
        if pending.isEmpty, !work.isEmpty { console.progress(label, done: work.count, total: work.count, started: started) }
        var next = 0
        var done = work.count - pending.count
        let workers = max(1, min(jobs, pending.count))
        DispatchQueue.concurrentPerform(iterations: pending.isEmpty ? 0 : workers) { _ in
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < pending.count else { return }
                let job = pending[index]
                let outcome = job.role == .video
                    ? processVideo(job, processor: videos, fingerprint: videoFingerprint)
                    : process(job, processor: processor, fingerprint: fingerprint)
                lock.lock()
                switch outcome {
                case .success(let (image, key, cached)):
                    result.images[job.source.path] = image
                    result.cacheKeys.insert(key)
                    if cached { result.fromCache += 1 } else { result.processed += 1 }
                case .failure(let problem):
                    result.diagnostics.error(SourceLocation(job.source.path), problem.message, hint: problem.hint)
                }
                done += 1
                let count = done, processedAny = result.processed > 0
                lock.unlock()
                if processedAny || count == work.count {
                    console.progress(label, done: count, total: work.count, started: started)
                }
            }
        }
        // Every key found or made: what the next build takes whole or around its changes.
        if let memo, let keys = remembered?.keys { memo.keepWhole(keys, images: result.images, cacheKeys: result.cacheKeys) }
        return result
    }

    /// The second pass: a carousel slide wider than the carousel's shape is drawn wider than the
    /// carousel (`ProcessedImage.slideScale`), so it is made again at its scaled widths, from as
    /// many of the source's pixels as that needs. Only slides whose largest file stopped at the
    /// widest configured width can have more to give.
    func widenCroppedSlides(of site: Site, in result: inout Result) {
        guard let widest = settings.widths.max() else { return }
        var byScale: [Double: [Job]] = [:]
        for post in site.posts where post.repostOf == nil && post.images.count > 1 {
            guard let first = result.images[post.images[0].path] else { continue }
            for source in post.images.dropFirst() where !source.isVideo {
                guard let image = result.images[source.path], image.width >= widest else { continue }
                let scale = image.slideScale(inBoxOf: first)
                if scale > 1 { byScale[scale, default: []].append(Job(source: source, role: .post)) }
            }
        }
        for (scale, jobs) in byScale.sorted(by: { $0.key < $1.key }) {
            var stage = self
            stage.settings = settings.forSlide(scale: scale)
            stage.progressLabel = "Processing carousel slides wider than their carousel"
            let wide = stage.run(jobs)
            // The slide keeps its first-pass files and gains the wider ones (its tile and colours
            // stay the first pass's); the second pass's own tile is cached but not published.
            for (path, extra) in wide.images {
                guard var image = result.images[path] else { continue }
                result.replacedFiles.formUnion(Set(extra.files).subtracting(extra.variants.map(\.file)))
                image.variants = (image.variants + extra.variants.filter { $0.width > image.width })
                    .sorted { $0.width != $1.width ? $0.width < $1.width : $0.format.rawValue < $1.format.rawValue }
                if let widest = image.variants.last { image.width = widest.width; image.height = widest.height }
                result.images[path] = image
            }
            result.cacheKeys.formUnion(wide.cacheKeys)
            // Counted once, by the first pass: the report counts images, not passes.
            result.diagnostics.append(contentsOf: wide.diagnostics.items)
        }
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
