import Foundation
import GramgenCore
import GramgenImaging
import GramgenRender

/// Skips a build whose result is already there: nothing it reads changed since the last successful
/// build into the same output (every file of content/, templates/ and static/ by path, size and
/// modification time, the options, the gramgen binary and the built-in theme), and the output is
/// still the folder that build swapped in (`folderStamp`; in place, every file as it was left).
/// Any difference means a full build (images stay cached).
struct UpToDateCheck {
    /// What a successful build leaves behind, to recognise the next no-op and replay its warnings.
    struct Record: Codable {
        var inputs: String
        var output: String
        var pageCount: Int
        var fileCount: Int
        var postCount: Int
        var userCount: Int
        var imageCount: Int
        var warnings: [Diagnostic]
    }

    let options: BuildOptions

    var recordURL: URL {
        options.cacheDirectory.appendingPathComponent("builds")
            .appendingPathComponent(ContentHash.hex(Data(options.output.path.utf8)) + ".json")
    }

    /// Which files the last build into this output wrote (see `OutputManifest`).
    var manifestURL: URL { recordURL.deletingPathExtension().appendingPathExtension("files") }

    /// The output as the last build's record names it (`folderStamp`).
    var recordedOutput: String? { Self.record(at: recordURL)?.output }

    /// The record at `url`; nil when there is none or it cannot be read.
    private static func record(at url: URL) -> Record? {
        (try? InputFile.read(atPath: url.path, limit: InputFile.maxTextBytes).get()).flatMap { try? JSONDecoder().decode(Record.self, from: $0) }
    }

    /// What the check found: the previous build's record when nothing changed, and the digest of
    /// the inputs as they were when the build started (what the build then reads).
    struct Outcome {
        var upToDate: Record?
        var inputs: String
        /// The files of `content/` as the walk found them, for the loader (`PostMemo`, `ImageMemo`).
        var content: [FolderWalk.Entry]? = nil
        /// Every name the walk met in `content/` is UTF-8 and every folder could be read: the
        /// loader's own check of names (`ContentLoader.Options.namesChecked`) would find nothing.
        var contentNamesClean = false
        /// How many files the last build into this output recorded: about as many as this one
        /// will (its table of them is made that large at once, not doubled as it grows: at
        /// 100,000 posts a doubling held 37 MB more at the peak of a build's memory).
        var lastFileCount = 0
        /// How many posts the last build into this output had (0 without a record).
        var lastPostCount = 0
    }

    /// Walks the inputs and, when there is a record, compares the output with it. `trusted` is the
    /// output as this process left it (`BuildMemory`): a folder published in place is then not walked.
    /// The walk of `content/` is kept for the loader (`PostMemo`), with whether its names are clean.
    ///
    /// With `listings`, the walk of `content/` reads only the folders those do not hold.
    func check(trusted: String? = nil, listings: FolderWalk.Listings? = nil) -> Outcome {
        var content: [FolderWalk.Entry]?
        var clean = false
        let keep: (inout [FolderWalk.Entry]) -> Void = { entries in
            clean = !entries.contains { $0.unreadable || FolderWalk.isMisread($0.path) }
            content = entries
        }
        let record = Self.record(at: recordURL)
        guard let record, FileManager.default.fileExists(atPath: options.output.path) else {
            // Nothing to compare the output with: the inputs' walk gets both cores.
            let inputs = inputsDigest(threads: options.parallel.workers, keepContent: keep, listings: listings)
            return Outcome(upToDate: nil, inputs: inputs, content: content, contentNamesClean: clean, lastFileCount: record?.fileCount ?? 0,
                           lastPostCount: record?.postCount ?? 0)
        }
        let inputs: String, output: String?
        if options.publishInPlace, let trusted {
            (inputs, output) = (inputsDigest(threads: options.parallel.workers, keepContent: keep, listings: listings), trusted)
        } else if options.publishInPlace {
            (inputs, output) = options.parallel.both({ inputsDigest(keepContent: keep, listings: listings) }, { Self.treeDigest(options.output) })
        } else {
            (inputs, output) = (inputsDigest(threads: options.parallel.workers, keepContent: keep, listings: listings), Self.folderStamp(options.output))
        }
        guard record.inputs == inputs, let output, record.output == output else {
            return Outcome(upToDate: nil, inputs: inputs, content: content, contentNamesClean: clean, lastFileCount: record.fileCount,
                           lastPostCount: record.postCount)
        }
        return Outcome(upToDate: record, inputs: inputs, content: content, contentNamesClean: clean, lastFileCount: record.fileCount,
                           lastPostCount: record.postCount)
    }

    /// Records a successful build. `inputs` is the digest taken before the build read them, so an
    /// edit made while it ran is not mistaken for built (the next build sees the difference).
    /// `published` lists the output's files when the publisher knows them; otherwise it is walked.
    /// Returns the output as recorded.
    @discardableResult
    func save(_ report: BuildReport, inputs: String, published: [FolderWalk.Entry]? = nil) -> String? {
        guard let output = output(published: published) else { return nil }
        save(report, inputs: inputs, output: output)
        return output
    }

    /// The output as a record names it (`published` as for `save`).
    func output(published: [FolderWalk.Entry]?) -> String? {
        options.publishInPlace ? published.map(Self.digest(of:)) ?? Self.treeDigest(options.output) : Self.folderStamp(options.output)
    }

    /// Records a successful build whose output is `output` (as `output(published:)` names it).
    func save(_ report: BuildReport, inputs: String, output: String) {
        let record = Record(inputs: inputs, output: output, pageCount: report.pageCount,
                            fileCount: report.fileCount, postCount: report.postCount, userCount: report.userCount,
                            imageCount: report.imagesProcessed + report.imagesFromCache,
                            warnings: report.diagnostics.items.filter { $0.severity == .warning })
        try? FileManager.default.createDirectory(at: recordURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? JSONEncoder().encode(record).write(to: recordURL, options: .atomic)
    }

    /// The output folder itself, as the build that swapped it in left it: its device, inode and
    /// times. A swapping build puts in a new folder each time, so this tells whether the output
    /// is still that folder, with nothing added to it or removed from it at its top, without a
    /// stat of each of its files (a no-op of a 100,000-post site would otherwise walk some
    /// 900,000 of them). A file changed by hand deeper inside is not seen here; the next build
    /// that has anything to do puts it back, as it takes over only files exactly as it wrote them.
    static func folderStamp(_ root: URL) -> String? {
        var info = stat()
        guard lstat(root.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return "folder \(info.st_dev) \(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) "
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    func inputsDigest(threads: Int = 1, keepContent: ((inout [FolderWalk.Entry]) -> Void)? = nil,
                      listings: FolderWalk.Listings? = nil) -> String {
        var digest = DigestBuilder()
        digest.add("gramgen\u{0}\(Self.executableStamp())\u{0}\(Theme.builtInDigest)\u{0}\(ImageProcessor.pipelineVersion)")
        digest.add("drafts=\(options.includeDrafts)\u{0}strict=\(options.strict)\u{0}base=\(options.baseURL ?? "")")
        for folder in ["content", "templates", "static"] {
            digest.add("[\(folder)]")
            Self.addListing(options.siteRoot.appendingPathComponent(folder), follow: true,
                            within: options.siteRoot.resolvingSymlinksInPath().path, threads: threads, to: &digest,
                            keep: folder == "content" ? keepContent : nil, listings: folder == "content" ? listings : nil)
        }
        listings?.finish()
        return digest.hex
    }

    /// The digest of what a folder published in place holds (its files' spares aside, see
    /// `Publisher.spare(of:)`), as `digest(of:)` gives for the files recorded.
    static func treeDigest(_ root: URL) -> String? {
        guard let entries = FolderWalk.entries(root.path, follow: false) else { return nil }
        return digest(of: entries.filter { !Publisher.isSpare($0.path) })
    }

    /// Relative paths of the regular files below `root` (none when it is missing).
    static func files(in root: URL) -> [String] {
        (FolderWalk.entries(root.path, follow: false) ?? []).filter(\.isRegular).map(\.path)
    }

    /// Adds every file below `root` (path, size, modification time); false when the folder is missing.
    @discardableResult
    static func addListing(_ root: URL, follow: Bool, within: String? = nil, threads: Int = 1, to digest: inout DigestBuilder,
                           keep: ((inout [FolderWalk.Entry]) -> Void)? = nil, listings: FolderWalk.Listings? = nil) -> Bool {
        guard var entries = FolderWalk.entries(root.path, follow: follow, within: within, threads: threads, listings: listings) else {
            digest.add("-")
            return false
        }
        add(entries, to: &digest)
        keep?(&entries)
        return true
    }

    /// The digest `treeDigest` gives for a folder holding exactly `entries`.
    static func digest(of entries: [FolderWalk.Entry]) -> String {
        var digest = DigestBuilder()
        add(entries, to: &digest)
        return digest.hex
    }

    /// The files as a set: the sum of each one's own digest (path, size, time), whatever order the
    /// walk found them in. Sorting the paths instead took a third of a no-op's CPU at 100,000 posts.
    private static func add(_ entries: [FolderWalk.Entry], to digest: inout DigestBuilder) {
        var sum: UInt64 = 0
        for entry in entries {
            var one = DigestBuilder()
            one.add(entry.path)
            one.add(UInt64(bitPattern: entry.size))
            one.add(UInt64(bitPattern: entry.modified))
            sum &+= one.value
        }
        digest.add(UInt64(entries.count))
        digest.add(sum)
    }

    /// Size and time of the running binary: a rebuilt gramgen never trusts an old build.
    static func executableStamp() -> String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
        return "\(info.st_size).\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
