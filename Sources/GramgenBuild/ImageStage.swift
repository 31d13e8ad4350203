import Foundation
import GramgenCore
import GramgenImaging

/// Stage 3: every image of the site processed (or found in the cache), on `jobs` threads.
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
    }

    let settings: ImageSettings
    let cache: MediaCache
    let digests: SourceDigests
    let jobs: Int
    let console: Console

    static func jobs(for site: Site) -> [Job] {
        var seen = Set<String>()
        var jobs: [Job] = []
        for user in site.users {
            if let avatar = user.avatar, seen.insert(avatar.path).inserted { jobs.append(Job(source: avatar, role: .avatar)) }
        }
        for post in site.posts {
            for image in post.images where seen.insert(image.path).inserted {
                jobs.append(Job(source: image, role: .post))
            }
        }
        return jobs
    }

    func run(_ work: [Job]) -> Result {
        let processor = ImageProcessor(settings: settings)
        let fingerprint = MediaCache.fingerprint(settings)
        let lock = NSLock()
        var result = Result()
        var next = 0
        var done = 0
        let started = Date()
        let workers = max(1, min(jobs, work.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < work.count else { return }
                let job = work[index]
                let outcome = process(job, processor: processor, fingerprint: fingerprint)
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
                    console.progress("Processing images", done: count, total: work.count, started: started)
                }
            }
        }
        return result
    }

    private func process(_ job: Job, processor: ImageProcessor, fingerprint: Data) -> Swift.Result<(ProcessedImage, String, Bool), ImageProblem> {
        let digest: String
        do {
            digest = try digests.digest(of: job.source.fileURL)
        } catch {
            return .failure(ImageProblem(message: "cannot read the file: \(error.localizedDescription)",
                                         hint: "check that the file exists and is readable"))
        }
        let key = MediaCache.key(sourceDigest: digest, fingerprint: fingerprint, role: job.role)
        if let cached = cache.lookup(key) { return .success((cached, key, true)) }
        do {
            let (image, files) = try processor.process(job.source.fileURL, role: job.role)
            try cache.store(key, image: image, files: files)
            return .success((image, key, false))
        } catch let problem as ImageProblem {
            return .failure(problem)
        } catch {
            return .failure(ImageProblem(message: "cannot store the processed image: \(error.localizedDescription)",
                                         hint: "check that the cache folder is writable and the disk has space"))
        }
    }
}
