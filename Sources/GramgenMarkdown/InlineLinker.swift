import GramgenCore

/// Walks a parsed caption once, in document order, and turns the hashtags and mentions the
/// author typed into links, collecting what the caption tags and mentions and its plain text.
///
/// The walk is iterative (no recursion), so deeply nested quotes or emphasis cannot overflow the
/// stack, and it edits each run of text in place, so the work grows linearly with the caption.
struct InlineLinker {
    let isKnownHandle: (String) -> Bool
    private(set) var tags: [String] = []
    private(set) var mentions: [String] = []
    /// Mentions of handles no user has, with cmark's position of their `@` (see `SourceLocator`).
    private(set) var unknownHandles: [SourceLocator.Hint] = []
    private(set) var plainText = PlainTextBuilder()
    private var mentioned: Set<String> = []
    /// The last character a reader sees before the current position; nil after a block boundary.
    /// It decides the "not after a letter, digit, `_`…" rules across inline boundaries too (`*a*#b`).
    private var previous: Unicode.Scalar?
    /// Inside a link or image, text is the link's own: no tags or mentions there.
    private var linkDepth = 0

    init(isKnownHandle: @escaping (String) -> Bool) {
        self.isKnownHandle = isKnownHandle
    }

    mutating func link(_ root: CmarkNode) {
        var current = root.firstChild
        while let node = current {
            let parent = node.parent
            var sibling: CmarkNode?
            switch node.kind {
            case .text, .marker:
                sibling = linkRun(startingAt: node)
            case .container, .inlineContainer, .link, .image:
                enter(node)
                if let child = node.firstChild {
                    current = child
                    continue
                }
                leave(node)
                sibling = node.next
            default:
                visitLeaf(node)
                sibling = node.next
            }
            var up = parent
            while sibling == nil, let container = up, container != root {
                leave(container)
                sibling = container.next
                up = container.parent
            }
            current = sibling
        }
    }

    private mutating func enter(_ node: CmarkNode) {
        switch node.kind {
        case .container: startBlock()
        case .link, .image: linkDepth += 1
        default: break
        }
    }

    private mutating func leave(_ node: CmarkNode) {
        switch node.kind {
        case .container: startBlock()
        case .link, .image: linkDepth -= 1
        default: break
        }
    }

    private mutating func startBlock() {
        plainText.breakBlock()
        previous = nil
    }

    private mutating func visitLeaf(_ node: CmarkNode) {
        switch node.kind {
        case .softBreak, .lineBreak:
            plainText.append(" ")
            previous = "\n"
        case .code:
            let code = node.literal
            plainText.append(code)
            previous = code.unicodeScalars.last ?? previous
        case .codeBlock:
            startBlock()
            plainText.append(node.literal)
            startBlock()
        case .htmlInline:
            previous = nil  // omitted from the page, so it separates like a space
        default:
            startBlock()
        }
    }
}


// MARK: - Runs of text: where hashtags and mentions are found and linked
extension InlineLinker {
    private enum Piece {
        case text(CmarkNode, String)
        case marker(CmarkNode, Unicode.Scalar, line: Int, column: Int)
    }

    /// Links the run starting at `first` and returns the node after it. cmark merges adjacent
    /// text nodes, so a run alternates text and markers; a tag or mention is always a marker plus
    /// a prefix of the text right after it, so each one is a local edit: the marker becomes the
    /// link and the text loses that prefix.
    mutating func linkRun(startingAt first: CmarkNode) -> CmarkNode? {
        var pieces: [Piece] = []
        var cursor: CmarkNode? = first
        while let node = cursor, node.kind == .text || node.kind == .marker {
            cursor = node.next
            pieces.append(piece(node))
        }
        pieces = mergingAdjacentText(pieces)
        for index in pieces.indices {
            switch pieces[index] {
            case .text(_, let text):
                plainText.append(text)
                previous = text.unicodeScalars.last ?? previous
            case .marker(let node, let character, let line, let column):
                var following: (node: CmarkNode, text: String)?
                if index + 1 < pieces.count, case .text(let next, let text) = pieces[index + 1] {
                    following = (next, text)
                }
                linkMarker(node, character, line: line, column: column, following: following)
                plainText.append(character)
                previous = character
            }
        }
        return cursor
    }

    private func piece(_ node: CmarkNode) -> Piece {
        guard let location = node.markerLocation, let character = node.literal.unicodeScalars.first else {
            return .text(node, node.literal)
        }
        return .marker(node, character, line: location.line, column: location.column)
    }

    /// Defensive: cmark already merges adjacent text nodes, but an extension could leave two.
    private func mergingAdjacentText(_ pieces: [Piece]) -> [Piece] {
        var merged: [Piece] = []
        var extra: [CmarkNode] = []
        func flush() {
            guard !extra.isEmpty, case .text(let node, let text)? = merged.last else { return }
            node.setLiteral(text)
            extra.forEach { $0.remove() }
            extra.removeAll()
        }
        for piece in pieces {
            if case .text(let node, let text) = piece, case .text(let kept, let keptText)? = merged.last {
                merged[merged.count - 1] = .text(kept, keptText + text)
                extra.append(node)
            } else {
                flush()
                merged.append(piece)
            }
        }
        flush()
        return merged
    }

    private mutating func linkMarker(
        _ marker: CmarkNode, _ character: Unicode.Scalar, line: Int, column: Int,
        following: (node: CmarkNode, text: String)?
    ) {
        let text = following?.text ?? ""
        guard linkDepth == 0 else { return marker.convertMarkerToText() }
        if character == "#", let tag = CaptionScanner.hashtag(after: previous, in: text) {
            tags.append(tag.name)
            let key = TagKey.key(for: tag.name)
            replace(marker, following, upTo: tag.end,
                    url: InternalLink.href(SitePaths.tag(key)), label: "#" + tag.name)
        } else if character == "@", let mention = CaptionScanner.mention(after: previous, in: text) {
            guard !Handle.reserved.contains(mention.handle), isKnownHandle(mention.handle) else {
                unknownHandles.append(SourceLocator.Hint(handle: mention.handle, line: line, column: column))
                return marker.convertMarkerToText()
            }
            if mentioned.insert(mention.handle).inserted { mentions.append(mention.handle) }
            replace(marker, following, upTo: mention.end,
                    url: InternalLink.href(SitePaths.profile(mention.handle)), label: "@" + mention.handle)
        } else {
            marker.convertMarkerToText()
        }
    }

    private func replace(
        _ marker: CmarkNode, _ following: (node: CmarkNode, text: String)?,
        upTo end: String.UnicodeScalarView.Index, url: String, label: String
    ) {
        marker.insertLinkBefore(url: url, text: label)
        marker.remove()
        guard let following else { return }
        let rest = following.text.unicodeScalars[end...]
        if rest.isEmpty {
            following.node.remove()
        } else {
            following.node.setLiteral(String(rest))
        }
    }
}
