import Foundation
import GramgenCore

/// What `gramgen build` was asked to do.
public struct BuildOptions: Sendable {
    public var siteRoot: URL
    public var output: URL
    public var baseURL: String?
    public var includeDrafts = false
    public var strict = false
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// How every parallel pass of the build spreads its work: `jobs` threads.
    public var parallel: Parallel { Parallel(jobs: jobs) }
    public var verbosity = Verbosity.normal
    /// Update the output in place, writing only changed files, instead of swapping in a complete new
    /// folder. For the preview server's private output only: a failed write can leave it mixed.
    public var publishInPlace = false
    /// Where processed images are kept between builds.
    public var cacheDirectory: URL
    /// The process ends right after this build (`gramgen build`): what the build made is left for
    /// the process's end to free at once (`BuildPipeline.keepUntilExit`).
    public var endsProcess = false
    /// Where ffmpeg and ffprobe are looked for, `PATH`-style (the environment's `PATH` by default).
    public var toolSearchPath = ProcessInfo.processInfo.environment["PATH"]

    public enum Verbosity: Sendable, Comparable { case quiet, normal, verbose }

    public init(siteRoot: URL, output: URL? = nil) {
        self.siteRoot = siteRoot.standardizedFileURL
        self.output = (output ?? siteRoot.appendingPathComponent("public")).standardizedFileURL
        cacheDirectory = siteRoot.appendingPathComponent(".gramgen/cache").standardizedFileURL
    }
}
