import Foundation

/// A file of the finished site, relative to the output root. Rendering makes these; publishing writes them.
public struct OutputFile: Sendable, Hashable {
    public var path: String
    public var contents: Data

    public init(path: String, contents: Data) {
        self.path = path
        self.contents = contents
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: Data(text.utf8))
    }
}
