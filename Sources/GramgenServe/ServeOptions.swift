import Foundation
import GramgenBuild

/// What `gramgen serve` was asked to do.
public struct ServeOptions: Sendable {
    public var siteRoot: URL
    public var host = "127.0.0.1"
    public var port = 8000
    public var includeDrafts = false
    /// Poll for changes instead of inotify (network or container-mounted folders).
    public var polling = false
    public var verbosity = BuildOptions.Verbosity.normal
    /// Quiet that ends a burst of changes; `settleMilliseconds` when the burst's last event
    /// finished a file (`ChangeWatcher`).
    public var debounceMilliseconds = 150
    public var settleMilliseconds = 30
    /// Quiet after a build before its records (what a next process reuses) are written: a
    /// change saved within it is built at once instead of after them (`BuildMemory.settle`).
    public var recordsQuietMilliseconds = 1000

    public init(siteRoot: URL) {
        self.siteRoot = siteRoot.standardizedFileURL
    }

    /// Inside the site's own cache folder, so public/ stays exactly what `gramgen build` made.
    public var output: URL { siteRoot.appendingPathComponent(".gramgen/serve") }

    /// The address pages are built for, so absolute URLs and 404.html's links work at the root even
    /// when site.yml's base_url has a sub-path.
    public var baseURL: String {
        var shown = host
        if host == "0.0.0.0" || host == "::" || host.isEmpty { shown = "localhost" }
        if shown.contains(":") && !shown.hasPrefix("[") { shown = "[\(shown)]" }
        return "http://\(shown):\(port)/"
    }

    public var buildOptions: BuildOptions {
        var options = BuildOptions(siteRoot: siteRoot, output: output)
        options.publishInPlace = true
        options.baseURL = baseURL
        options.includeDrafts = includeDrafts
        options.verbosity = verbosity
        return options
    }
}
