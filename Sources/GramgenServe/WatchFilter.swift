/// Which changes under the site folder mean "rebuild": the three input folders, minus what editors
/// and gramgen itself write (swap files, backups, the output and cache).
enum WatchFilter {
    /// The folders a build reads.
    static let inputFolders = ["content", "templates", "static"]

    /// Folders never watched, wherever they appear.
    static let ignoredFolders: Set<String> = [".gramgen", "public", ".git", ".build"]

    /// True for a file name an editor writes while saving: vim's `.swp`/`.swx` and its `4913` probe,
    /// emacs' `#…#` and `.#…` lock links, backups ending in `~`, and partial downloads.
    static func isIgnored(name: String) -> Bool {
        if name.isEmpty || name == "4913" || ignoredFolders.contains(name) { return true }
        if name.hasSuffix("~") || name.hasPrefix(".#") || (name.hasPrefix("#") && name.hasSuffix("#")) { return true }
        for suffix in [".swp", ".swx", ".swo", ".tmp", ".crdownload", ".part", ".DS_Store"] where name.hasSuffix(suffix) {
            return true
        }
        return false
    }
}
