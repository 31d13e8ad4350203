import Foundation
import GramgenCore
import GramgenRender

/// What a build did: its problems, the time each stage took, and what it made.
public struct BuildReport: Sendable {
    public struct Stage: Sendable {
        public var name: String
        public var seconds: Double
    }

    public var diagnostics = Diagnostics()
    public var stages: [Stage] = []
    public var pageCount = 0
    public var fileCount = 0
    public var postCount = 0
    public var userCount = 0
    public var imagesProcessed = 0
    public var imagesFromCache = 0
    /// Posts read and parsed, and posts taken as the last build left them (their folders unchanged).
    public var postsRead = 0
    public var postsKept = 0
    /// Profiles taken as the last build left them (their user folders unchanged).
    public var profilesKept = 0
    /// Images taken as the last build found them (their files unchanged), without a look-up.
    public var imagesKept = 0
    /// Every image taken in one piece, as the last build's first look-up found them (the same
    /// images, every file unchanged: `ImageMemo.lookupWhole`).
    public var imagesWhole = false
    /// The theme taken as the last build made it (no file of it changed), without parsing it.
    public var themeKept = false
    /// The media files to publish taken as the last build's (the same images).
    public var mediaKept = false
    /// Files taken over from the previous build because what they are made from did not change.
    public var pagesReused = 0
    /// Groups of pages taken over whole, without being queued (`PageSet.addGroup`), by kind.
    public var groupsKept: [PageGroupKind: Int] = [:]
    /// ... of post pages, of profile tabs drawn as cards, of users' other profile pages.
    public var pageGroupsKept: Int { groupsKept[.posts] ?? 0 }
    public var tabGroupsKept: Int { groupsKept[.tab] ?? 0 }
    public var profileGroupsKept: Int { groupsKept[.profile] ?? 0 }
    /// The spare's media files taken as its manifest lists them, their folder unchanged since
    /// (`OutputManifest.mediaStamp`), without a look at each.
    public var spareMediaTrusted = false
    /// ... and they were this build's media files, taken with their record whole, not one by one.
    public var spareMediaWhole = false
    /// Pages and feeds drawn (the rest of them were taken over unchanged).
    public var pagesDrawn = 0
    /// Pages that changed and were left for a catch-up build (`FastRender`).
    public var pagesLeftForLater = 0
    /// A catch-up build gave way to a change before it wrote anything.
    public var stoppedForChange = false
    public var published = false
    /// Nothing changed since the last build into this output, so nothing was done.
    public var upToDate = false

    public init() {}

    public var totalSeconds: Double { stages.reduce(0) { $0 + $1.seconds } }

    /// What a catch-up build's report starts from (`BuildPipeline.catchUp`): what the build it
    /// continues loaded (its counts, its warnings: it published), nothing of what it drew.
    func continued() -> BuildReport {
        var report = BuildReport()
        report.userCount = userCount
        report.postCount = postCount
        report.pageCount = pageCount
        report.imagesFromCache = imagesFromCache + imagesProcessed
        report.diagnostics = diagnostics
        return report
    }
}
