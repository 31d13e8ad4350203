import Foundation

/// What a template name stands for: text, a number, a flag, a list, an object with fields, or nothing.
/// View models answer with these directly (see `View+TemplateFields.swift`), so drawing a page
/// needs no reflection and no dynamic casts.
enum TemplateValue {
    case missing
    case text(String)
    /// Text holding links whose way back to the site root is `InternalLink.rootMark`, written
    /// with the page's root in its place: a view shared by pages of every depth. Otherwise text.
    case rooted(String)
    case number(Int)
    case flag(Bool)
    case list([TemplateValue])
    /// A view model's own array, handed to the template as it is: an item becomes a value only
    /// when the template reaches it, so looking a list up allocates nothing.
    case objects(any TemplateObjectList)
    case object(any TemplateObject)

    init(_ text: String) { self = .text(text) }
    init(_ text: String?) { self = text.map(TemplateValue.text) ?? .missing }
    init(rooted text: String?) { self = text.map(TemplateValue.rooted) ?? .missing }
    init(_ number: Int) { self = .number(number) }
    init(_ flag: Bool) { self = .flag(flag) }
    init<T: TemplateObject>(_ object: T) { self = .object(object) }
    init<T: TemplateObject>(_ object: T?) { self = object.map { .object($0) } ?? .missing }
    init<T: TemplateObject>(_ items: [T]) { self = .objects(items) }
    init<T: TemplateObject>(_ items: [T]?) { self = items.map { .objects($0) } ?? .missing }

    /// A section draws nothing for a missing value, `false` or an empty list.
    var isFalsy: Bool {
        switch self {
        case .missing: true
        case .flag(let flag): !flag
        case .list(let items): items.isEmpty
        case .objects(let items): items.count == 0
        default: false
        }
    }

    /// The field `name` of an object; every other value has no fields.
    func field(_ name: String) -> TemplateValue {
        if case .object(let object) = self { return object.field(name) }
        return .missing
    }

    /// The same by the name's number (see `FieldName`).
    func field(_ name: FieldName) -> TemplateValue {
        if case .object(let object) = self { return object.field(name) }
        return .missing
    }
}

/// A value with named fields, such as a view model.
protocol TemplateObject {
    /// The field's value, `.missing` for a name the object does not have.
    func field(_ name: String) -> TemplateValue
    /// The same, found by the name's number; view models answer from a table (`FieldTable`).
    func field(_ name: FieldName) -> TemplateValue
    /// The names it may have a field of (any, unless it says).
    var fieldMask: FieldMask { get }
    /// The names of fields a list item drawn once and kept (`FragmentMemo`) may read: those the
    /// same on every page of a build (the page's texts in the site's language) and those whose
    /// values `memoContext` sums up, which is part of the item's key.
    var sharedMask: FieldMask { get }
    var memoContext: UInt64 { get }
}

extension TemplateObject {
    func field(_ name: FieldName) -> TemplateValue { field(name.text) }
    var fieldMask: FieldMask { .all }
    var sharedMask: FieldMask { .none }
    var memoContext: UInt64 { 0 }
}

/// Which names (by number, `FieldName`) a value may have a field of, as bits: looking a name up
/// from the innermost section outwards passes over the values that cannot have it without
/// calling into each (most of a page's look-ups were such misses). Numbers past the bits are
/// always "may".
struct FieldMask: Sendable {
    private var bits: (UInt64, UInt64, UInt64, UInt64)
    private var rest: Bool

    static let none = FieldMask(bits: (0, 0, 0, 0), rest: false)
    static let all = FieldMask(bits: (~0, ~0, ~0, ~0), rest: true)

    init(_ numbers: [Int]) {
        self = .none
        for number in numbers {
            switch number >> 6 {
            case 0: bits.0 |= 1 << UInt64(number & 63)
            case 1: bits.1 |= 1 << UInt64(number & 63)
            case 2: bits.2 |= 1 << UInt64(number & 63)
            case 3: bits.3 |= 1 << UInt64(number & 63)
            default: rest = true
            }
        }
    }

    private init(bits: (UInt64, UInt64, UInt64, UInt64), rest: Bool) {
        self.bits = bits
        self.rest = rest
    }

    func mayHave(_ number: Int) -> Bool {
        let bit = UInt64(1) << UInt64(number & 63)
        switch number >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        case 3: return bits.3 & bit != 0
        default: return rest
        }
    }
}

/// A list of view models as a section walks it.
protocol TemplateObjectList {
    var count: Int { get }
    func item(_ index: Int) -> TemplateValue
    /// A digest of everything item `index` is made from, when its drawn bytes may be kept and
    /// copied wherever the same item is drawn again (`FragmentMemo`); nil: always drawn.
    func memoKey(_ index: Int) -> UInt64?
}

extension TemplateObjectList {
    func memoKey(_ index: Int) -> UInt64? { nil }
}

extension Array: TemplateObjectList where Element: TemplateObject {
    func item(_ index: Int) -> TemplateValue { .object(self[index]) }
}

/// A field name of a template, numbered once when the template is compiled: a view model finds
/// the field by this number in an array instead of hashing the name on every lookup.
struct FieldName: Sendable {
    let text: String
    let number: Int

    init(_ text: String) {
        self.text = text
        number = FieldName.numbers.number(for: text)
    }

    private static let numbers = FieldNumbers()

    /// Every name seen so far and its number; names are few (a theme's and the view models').
    private final class FieldNumbers: @unchecked Sendable {
        private let lock = NSLock()
        private var numbers: [String: Int] = [:]

        func number(for name: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            if let number = numbers[name] { return number }
            let number = numbers.count
            numbers[name] = number
            return number
        }
    }
}

/// A view model type's fields, by name (the list docs/templates.md describes) and by number.
struct FieldTable<Object> {
    let byName: [String: (Object) -> TemplateValue]
    private let byNumber: [((Object) -> TemplateValue)?]
    let mask: FieldMask

    init(_ fields: [String: (Object) -> TemplateValue]) {
        byName = fields
        let named = fields.map { (FieldName($0.key).number, $0.value) }
        var byNumber = [((Object) -> TemplateValue)?](repeating: nil, count: (named.map(\.0).max() ?? -1) + 1)
        for (number, read) in named { byNumber[number] = read }
        self.byNumber = byNumber
        mask = FieldMask(named.map(\.0))
    }

    func value(_ name: FieldName, of object: Object) -> TemplateValue {
        name.number < byNumber.count ? byNumber[name.number]?(object) ?? .missing : .missing
    }
}
