import Foundation
import GramgenBuild
import GramgenCore

/// Prints a build's diagnostics (coloured on a terminal) and its one-line summary.
struct ReportPrinter {
    let console: Console
    let colour: Bool

    func print(_ report: BuildReport, output: URL, cwd: URL) {
        for diagnostic in report.diagnostics.sorted {
            console.problem(format(diagnostic))
        }
        let errors = report.diagnostics.errorCount, warnings = report.diagnostics.warningCount
        let problems = [errors > 0 ? Self.plural(errors, "error") : nil, warnings > 0 ? Self.plural(warnings, "warning") : nil]
            .compactMap { $0 }.joined(separator: ", ")
        let place = relative(output, to: cwd)
        if report.upToDate {
            var line = String(format: "Nothing changed since the last build; %@ is up to date (%.2fs)", place, report.totalSeconds)
            if !problems.isEmpty { line += " (\(problems))" }
            console.info(line)
        } else if report.published {
            let images = report.imagesProcessed + report.imagesFromCache
            var line = String(format: "Built %@ (%@, %@) from %@ and %@ in %.2fs → %@",
                              Self.plural(report.pageCount, "page"), Self.plural(images, "image"),
                              "\(report.imagesFromCache) cached", Self.plural(report.postCount, "post"),
                              Self.plural(report.userCount, "user"), report.totalSeconds, place)
            if !problems.isEmpty { line += " (\(problems))" }
            console.info(line)
            console.detail("  Pages and feeds: \(report.pagesDrawn) drawn, \(report.pagesReused) taken over from the last build unchanged"
                + Self.groupsKept(report)
                + (report.pagesLeftForLater > 0 ? ", \(report.pagesLeftForLater) left to draw after the reload" : ""))
        } else {
            console.problem("Build failed with \(problems.isEmpty ? "errors" : problems); \(place) was left unchanged.")
        }
    }

    /// " (369 groups of post pages, 195 profile tabs and 97 profiles whole)", or what of it there is.
    static func groupsKept(_ report: BuildReport) -> String {
        let parts = (report.pageGroupsKept > 0 ? ["\(plural(report.pageGroupsKept, "group")) of post pages"] : [])
            + (report.tabGroupsKept > 0 ? [plural(report.tabGroupsKept, "profile tab")] : [])
            + (report.profileGroupsKept > 0 ? [plural(report.profileGroupsKept, "profile")] : [])
        guard let last = parts.last else { return "" }
        return " (" + (parts.count > 1 ? parts.dropLast().joined(separator: ", ") + " and " + last : last) + " whole)"
    }

    private func format(_ d: Diagnostic) -> String {
        guard colour else { return d.description }
        let label = d.severity == .error ? "\u{1B}[1;31merror\u{1B}[0m" : "\u{1B}[1;33mwarning\u{1B}[0m"
        var text = "\u{1B}[1m\(d.location.description)\u{1B}[0m: \(label): \(Diagnostic.visible(d.message))"
        if let hint = d.hint { text += " \u{1B}[2m— \(Diagnostic.visible(hint))\u{1B}[0m" }
        return text
    }

    private static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    private func relative(_ url: URL, to base: URL) -> String {
        let path = url.standardizedFileURL.path, basePath = base.standardizedFileURL.path
        if path.hasPrefix(basePath + "/") { return String(path.dropFirst(basePath.count + 1)) + "/" }
        return path + "/"
    }
}
