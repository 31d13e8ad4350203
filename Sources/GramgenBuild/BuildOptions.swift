import Foundation

/// What `gramgen build` was asked to do.
public struct BuildOptions: Sendable {
    public var siteRoot: URL
    public var output: URL
    public var baseURL: String?
    public var includeDrafts = false
    public var strict = false
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var verbosity = Verbosity.normal
    /// Where processed images are kept between builds.
    public var cacheDirectory: URL

    public enum Verbosity: Sendable, Comparable { case quiet, normal, verbose }

    public init(siteRoot: URL, output: URL? = nil) {
        self.siteRoot = siteRoot.standardizedFileURL
        self.output = (output ?? siteRoot.appendingPathComponent("public")).standardizedFileURL
        cacheDirectory = siteRoot.appendingPathComponent(".gramgen/cache").standardizedFileURL
    }
}
