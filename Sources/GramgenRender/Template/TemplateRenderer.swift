import GramgenCore

/// Draws compiled templates into bytes. Names are looked up from the innermost section outwards;
/// `{{name}}` is HTML-escaped one Unicode scalar at a time (see `HTMLBytes` in Escape.swift).
///
/// Why gramgen has its own Mustache engine rather than swift-mustache (Hummingbird's): pages are
/// most of a build's time once images are cached, and on the 10,000-post corpus swift-mustache drew
/// them 12× slower with its `MustacheParent` protocol and 37× slower with its default reflection
/// (`Mirror`) than this engine, which compiles each template once, numbers field names at compile
/// time (`FieldName`) so view models answer from an array, walks view-model arrays without boxing
/// (`TemplateObjectList`), draws each template from a flat list of steps (`Program`), and writes
/// bytes. It also escapes per Unicode scalar and drops the
/// characters XML forbids, so the same escaper serves HTML and the Atom feed. Conformance with the
/// Mustache spec is tested case by case (MustacheSpecTests).
struct TemplateRenderer {
    /// Each template as drawn, by number (`numbers`); the parsed trees are not kept.
    private let programs: [Program]
    /// The same, drawn without a count taken: every partial drawn took one, on a program shared by
    /// both threads of a build (600,000 counts a pages-only build at 10,000 posts). `programs`
    /// holds them as long as the renderer lives.
    private let drawn: [Unmanaged<Program>]
    private let numbers: [String: Int]

    init(templates: [String: CompiledTemplate]) {
        let names = templates.keys.sorted()
        let numbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        programs = names.map { Program(templates[$0]!.nodes, number: numbers[$0]!, numbers: numbers) }
        drawn = programs.map { Unmanaged.passUnretained($0) }
        self.numbers = numbers
    }

    /// The page drawn by template `name`, or nil when there is no such template. With `memo`,
    /// an item of a list that names a key for it (`TemplateObjectList.memoKey`) is drawn once and
    /// its bytes kept: drawn again, by this page or another, they are copied (see `FragmentMemo`).
    /// `root`: the page's way back to the site root, written for `InternalLink.rootMark` in a
    /// `.rooted` value.
    func render(_ name: String, _ value: TemplateValue, root: String = "", memo: FragmentMemo? = nil) -> [UInt8]? {
        let out = PageBytes(capacity: PageBytes.pageCapacity)
        return render(name, value, root: root, memo: memo, into: out) ? out.array : nil
    }

    /// The same, drawn at the end of `out`; false when there is no such template.
    func render(_ name: String, _ value: TemplateValue, root: String = "", memo: FragmentMemo? = nil, into out: PageBytes) -> Bool {
        guard let number = numbers[name] else { return false }
        var stack = Stack(value)
        stack.root = Array(root.utf8)
        stack.memo = memo.map { Unmanaged.passUnretained($0) }
        draw(number, stack: &stack, indentation: [], depth: 0, into: out)
        return true
    }

    /// Partials may include themselves through sections; this bounds a theme that recurses forever.
    static let maximumDepth = 64

    /// A template as a flat list of steps whose operands are numbers into its tables, so drawing
    /// copies no counted reference per step: drawn from the tree of nodes, whose text and bodies are
    /// arrays, each node drawn retained and released them (a twentieth of a pages-only build). The
    /// tables are read through buffers it owns, so a step is read where it is. A name's path is a
    /// range of `names`, not an array of its own: held as `FieldPath`s, each look-up retained and
    /// released its path's array, one counter shared by every thread drawing the same template
    /// (5% of a pages-only build's samples at 10,000 posts).
    final class Program: @unchecked Sendable {
        enum Step {
            /// `bytes[start..<end]`.
            case text(start: Int32, end: Int32)
            case variable(path: Int32, escaped: Bool)
            /// The section's body is the steps after it, up to `end`.
            case section(path: Int32, inverted: Bool, end: Int32)
            /// The template numbered `template` (-1: there is none), each line indented by `indentations[indentation]`.
            case partial(template: Int32, indentation: Int32)
            case dynamicPartial(path: Int32, indentation: Int32)
        }

        let steps: UnsafeMutableBufferPointer<Step>
        let bytes: UnsafeMutableBufferPointer<UInt8>
        /// Each path's names, `names[start..<start + count]` (no names: the current item, `.`).
        let paths: UnsafeMutableBufferPointer<(start: Int32, count: Int32)>
        let names: UnsafeMutableBufferPointer<FieldName>
        let indentations: [[UInt8]]
        /// The template's number (`numbers`), part of a kept fragment's key.
        let number: Int

        init(_ nodes: [CompiledTemplate.Node], number: Int, numbers: [String: Int]) {
            self.number = number
            var tables = Tables()
            tables.add(nodes, numbers: numbers)
            steps = .allocate(capacity: tables.steps.count)
            _ = steps.initialize(from: tables.steps)
            bytes = .allocate(capacity: tables.bytes.count)
            _ = bytes.initialize(from: tables.bytes)
            paths = .allocate(capacity: tables.paths.count)
            _ = paths.initialize(from: tables.paths)
            names = .allocate(capacity: tables.names.count)
            _ = names.initialize(from: tables.names)
            indentations = tables.indentations
        }

        deinit {
            steps.deallocate()
            bytes.deallocate()
            paths.deallocate()
            names.deinitialize().deallocate()
        }

        private struct Tables {
            var steps: [Step] = []
            var bytes: [UInt8] = []
            var paths: [(start: Int32, count: Int32)] = []
            var names: [FieldName] = []
            var indentations: [[UInt8]] = []

            mutating func add(_ nodes: [CompiledTemplate.Node], numbers: [String: Int]) {
                for node in nodes {
                    switch node {
                    case .text(let text):
                        steps.append(.text(start: Int32(bytes.count), end: Int32(bytes.count + text.count)))
                        bytes += text
                    case .variable(let path, let escaped):
                        steps.append(.variable(path: number(of: path), escaped: escaped))
                    case .section(let path, let inverted, let body):
                        let at = steps.count
                        steps.append(.text(start: 0, end: 0))  // replaced once the body's end is known
                        add(body, numbers: numbers)
                        steps[at] = .section(path: number(of: path), inverted: inverted, end: Int32(steps.count))
                    case .partial(let name, let more, _):
                        indentations.append(more)
                        steps.append(.partial(template: Int32(numbers[name] ?? -1), indentation: Int32(indentations.count - 1)))
                    case .dynamicPartial(let path, let more):
                        indentations.append(more)
                        steps.append(.dynamicPartial(path: number(of: path), indentation: Int32(indentations.count - 1)))
                    }
                }
            }

            private mutating func number(of path: FieldPath) -> Int32 {
                paths.append((Int32(names.count), Int32(path.parts.count)))
                names += path.parts
                return Int32(paths.count - 1)
            }
        }
    }

    private func draw(_ number: Int, stack: inout Stack, indentation: [UInt8], depth: Int, into out: PageBytes) {
        drawn[number]._withUnsafeGuaranteedRef { program in
            draw(program, 0..<program.steps.count, stack: &stack, indentation: indentation, depth: depth, into: out)
        }
    }

    private func draw(_ program: Program, _ range: Range<Int>, stack: inout Stack, indentation: [UInt8], depth: Int,
                      into out: PageBytes) {
        let start = out.count
        var index = range.lowerBound
        while index < range.upperBound {
            let next: Int
            if case .section(_, _, let end) = program.steps[index] { next = Int(end) } else { next = index + 1 }
            // Inside an indented partial, whatever follows a line break of its own output is indented.
            guard !indentation.isEmpty, out.count > start, out.last == UInt8(ascii: "\n") else {
                drawStep(program, index, stack: &stack, indentation: indentation, depth: depth, into: out)
                index = next
                continue
            }
            indentation.withUnsafeBufferPointer { out.append(bytes: $0) }
            let before = out.count
            drawStep(program, index, stack: &stack, indentation: indentation, depth: depth, into: out)
            if out.count == before { out.removeSuffix(from: before - indentation.count) }
            index = next
        }
    }

    private func drawStep(_ program: Program, _ index: Int, stack: inout Stack, indentation: [UInt8], depth: Int,
                          into out: PageBytes) {
        switch program.steps[index] {
        case .text(let start, let end):
            out.append(bytes: UnsafeBufferPointer(rebasing: program.bytes[Int(start)..<Int(end)]))
        case .variable(let path, let escaped):
            var sink = out
            switch lookup(path, of: program, in: &stack) {
            case .text(let text): escaped ? HTMLBytes.appendEscaped(text, to: &sink) : text.withUTF8Bytes { out.append(bytes: $0) }
            case .rooted(let text): HTMLBytes.append(text, root: stack.root, escaped: escaped, to: &sink)
            case .number(let number): String(number).withUTF8Bytes { out.append(bytes: $0) }
            case .flag(let flag): sink.append(bytes: flag ? "true" : "false")
            case .missing, .list, .objects, .object: break
            }
        case .section(let path, let inverted, let end):
            let body = (index + 1)..<Int(end)
            let value = lookup(path, of: program, in: &stack)
            if inverted {
                if value.isFalsy { draw(program, body, stack: &stack, indentation: indentation, depth: depth, into: out) }
                return
            }
            switch value {
            case .missing: break
            case .flag(let flag):
                if flag { draw(program, body, stack: &stack, indentation: indentation, depth: depth, into: out) }
            case .list(let items):
                for item in items {
                    stack.push(item)
                    draw(program, body, stack: &stack, indentation: indentation, depth: depth, into: out)
                    stack.pop()
                }
            case .objects(let items):
                var context: DigestBuilder?
                for item in 0..<items.count {
                    if let memo = stack.memo, stack.floor == nil, let key = items.memoKey(item) {
                        if context == nil { context = memoContext(program, step: index, stack: stack, indentation: indentation, depth: depth) }
                        drawKept(memo, key: key, context: context!, items, item, program, body, stack: &stack,
                                 indentation: indentation, depth: depth, into: out)
                        continue
                    }
                    stack.push(items.item(item))
                    draw(program, body, stack: &stack, indentation: indentation, depth: depth, into: out)
                    stack.pop()
                }
            case .text, .rooted, .number, .object:
                stack.push(value)
                draw(program, body, stack: &stack, indentation: indentation, depth: depth, into: out)
                stack.pop()
            }
        case .partial(let template, let more):
            guard depth < Self.maximumDepth, template >= 0 else { return }
            draw(Int(template), stack: &stack, indentation: indentation + program.indentations[Int(more)],
                 depth: depth + 1, into: out)
        case .dynamicPartial(let path, let more):
            guard depth < Self.maximumDepth, case .text(let name) = lookup(path, of: program, in: &stack),
                  let template = numbers[name] else { return }
            draw(template, stack: &stack, indentation: indentation + program.indentations[Int(more)],
                 depth: depth + 1, into: out)
        }
    }

    /// What a kept item's bytes depend on besides the item: the template and step drawing it, the
    /// indentation, the depth of partials (their bound), and the values around it that sum up
    /// the fields it may read of them (`TemplateObject.memoContext`).
    private func memoContext(_ program: Program, step: Int, stack: Stack, indentation: [UInt8], depth: Int) -> DigestBuilder {
        var digest = DigestBuilder()
        digest.add(UInt64(program.number))
        digest.add(UInt64(step))
        digest.add(UInt64(depth))
        digest.add(indentation)
        stack.memoContexts(into: &digest)
        return digest
    }

    /// Item `item` of `items` as the body of a section: copied from `memo` when kept there under
    /// its key and `context`, else drawn, and kept unless it read anything of the page around it
    /// that `context` does not cover. Kept with `InternalLink.rootMark` for the way back to the
    /// root (drawn with it as the root), so one item serves pages of every depth: the page's root
    /// is written in its place as the item is put on the page.
    private func drawKept(_ memo: Unmanaged<FragmentMemo>, key itemKey: UInt64, context: DigestBuilder, _ items: any TemplateObjectList,
                          _ item: Int, _ program: Program, _ body: Range<Int>, stack: inout Stack, indentation: [UInt8],
                          depth: Int, into out: PageBytes) {
        var digest = context
        digest.add(itemKey)
        let key = digest.value
        let root = stack.root
        var sink = out
        if memo._withUnsafeGuaranteedRef({ $0.read(key) { HTMLBytes.append($0, root: root, escaped: false, to: &sink) } }) { return }
        let start = out.count
        stack.root = HTMLBytes.rootMark
        stack.push(items.item(item))
        stack.floor = stack.count - 1
        stack.readBelowFloor = false
        draw(program, body, stack: &stack, indentation: indentation, depth: depth, into: out)
        stack.pop()
        stack.floor = nil
        stack.root = root
        if !stack.readBelowFloor { memo._withUnsafeGuaranteedRef { $0.keep(key, out.bytes(from: start)) } }
        Self.writeRoot(root, in: out, from: start)
    }

    /// `root` in place of each `InternalLink.rootMark` in `out` from `start` on (an item drawn
    /// with the mark).
    private static func writeRoot(_ root: [UInt8], in out: PageBytes, from start: Int) {
        guard root != HTMLBytes.rootMark, let found = out.bytes(from: start).index(of: HTMLBytes.rootMark[0], from: 0) else { return }
        let first = start + found
        let item = Array(out.bytes(from: first))
        out.removeSuffix(from: first)
        var sink = out
        item.withUnsafeBufferPointer { HTMLBytes.append($0, root: root, escaped: false, to: &sink) }
    }

    /// The values of the sections drawn, innermost last, with the names each may have
    /// (`FieldMask`) and its object, kept apart so a look-up copies no value. A `TemplateValue`
    /// holds existentials, so it lives in memory and its payload is taken from a copy: a field read
    /// through the value copied the value and its object first, then destroyed both (5% of a
    /// pages-only build's samples at 10,000 posts); the object alone is read where it is.
    struct Stack {
        /// Each value as pushed, but an object's, which is `.missing` here: its object is in
        /// `objects` alone (see `value(at:)`).
        private var values: [TemplateValue]
        private(set) var masks: [FieldMask]
        /// Each value's object, or one with no fields for a value that is not one (places past
        /// `count` hold what was pushed there last).
        private(set) var objects: [any TemplateObject]
        private var isObject: [Bool]
        /// Where drawn list items are kept, if anywhere.
        /// Not counted: the memo is the caller's of `render`, held all the while (counted, it took
        /// a count of the one memo both threads draw into at every item of a list).
        var memo: Unmanaged<FragmentMemo>?
        /// The page's way back to the site root (`TemplateValue.rooted`).
        var root: [UInt8] = []
        /// While an item to be kept is drawn: its place in the stack. A name looked up below it,
        /// in a value that may have it and does not say it is the same on every page
        /// (`TemplateObject.sharedMask`), makes the item's bytes depend on the page: not kept.
        var floor: Int?
        var readBelowFloor = false

        init(_ value: TemplateValue) {
            (values, masks, isObject) = ([], [], [])
            objects = Array(repeating: NoFields(), count: Self.depth)
            push(value)
        }

        /// The places `objects` starts with (a page's sections seldom nest deeper).
        private static let depth = 16

        var count: Int { values.count }

        /// Taken, not copied, and put in a place of `objects` that is there already: appended, an
        /// existential has its box made unique, and an object held twice (here and by the caller)
        /// was copied whole into a new box at every push.
        mutating func push(_ value: consuming TemplateValue) {
            let index = values.count
            switch consume value {
            case .object(let object):
                values.append(.missing)
                masks.append(object.fieldMask)
                isObject.append(true)
                if index < objects.count { objects[index] = object } else { objects.append(object) }
            case let other:
                values.append(other)
                masks.append(.none)
                isObject.append(false)
                if index < objects.count { objects[index] = NoFields() } else { objects.append(NoFields()) }
            }
        }

        /// The object stays in its place until another is pushed there (or the page is drawn).
        mutating func pop() {
            values.removeLast()
            masks.removeLast()
            isObject.removeLast()
        }

        /// The value at `index` as it was pushed.
        func value(at index: Int) -> TemplateValue {
            isObject[index] ? .object(objects[index]) : values[index]
        }

        /// The `memoContext` of every object, innermost last.
        func memoContexts(into digest: inout DigestBuilder) {
            for index in 0..<count where isObject[index] { digest.add(TemplateRenderer.memoContext(of: objects, index)) }
        }
    }

    /// The object of a value that is not one: no field (its mask, `.none`, says so first).
    private struct NoFields: TemplateObject {
        func field(_ name: String) -> TemplateValue { .missing }
        func field(_ name: FieldName) -> TemplateValue { .missing }
        var fieldMask: FieldMask { .none }
    }

    /// Field `name` of `objects[index]`, read where the array holds it. Not inlined on purpose:
    /// read through the stack, an `inout` value, the object was copied first, then destroyed (an
    /// outlined copy of the existential: a call through its value witnesses and a count shared by
    /// every thread drawing the same view); an array handed to a function is read in place.
    @inline(never)
    private static func field(_ name: FieldName, of objects: [any TemplateObject], _ index: Int) -> TemplateValue {
        objects[index].field(name)
    }

    /// `objects[index].memoContext`, read in place (see `field(_:of:_:)`).
    @inline(never)
    fileprivate static func memoContext(of objects: [any TemplateObject], _ index: Int) -> UInt64 {
        objects[index].memoContext
    }

    /// `objects[index].sharedMask`, read in place (see `field(_:of:_:)`).
    @inline(never)
    private static func sharedMask(of objects: [any TemplateObject], _ index: Int) -> FieldMask {
        objects[index].sharedMask
    }

    /// The first name of path number `path` is searched from the innermost value outwards (passing
    /// over those that cannot have it); the rest are fields of what it found. The names are read
    /// where `program` holds them.
    private func lookup(_ path: Int32, of program: Program, in stack: inout Stack) -> TemplateValue {
        let (start, count) = program.paths[Int(path)]
        guard count > 0 else { return stack.count > 0 ? stack.value(at: stack.count - 1) : .missing }
        let names = program.names.baseAddress.unsafelyUnwrapped + Int(start)
        let first = names.pointee.number
        var value = TemplateValue.missing
        var index = stack.count
        while index > 0 {
            index -= 1
            guard stack.masks[index].mayHave(first) else { continue }
            if let floor = stack.floor, index < floor, !Self.sharedMask(of: stack.objects, index).mayHave(first) {
                stack.readBelowFloor = true
            }
            value = Self.field(names.pointee, of: stack.objects, index)
            if case .missing = value { continue }
            break
        }
        for part in 1..<Int(count) {
            value = value.field(names[part])
        }
        return value
    }
}
