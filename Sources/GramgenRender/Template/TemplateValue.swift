/// What a template name stands for: text, a number, a flag, a list, an object with fields, or nothing.
/// View models answer with these directly (see `View+TemplateFields.swift`), so drawing a page
/// needs no reflection and no dynamic casts.
enum TemplateValue {
    case missing
    case text(String)
    case number(Int)
    case flag(Bool)
    case list([TemplateValue])
    case object(any TemplateObject)

    init(_ text: String) { self = .text(text) }
    init(_ text: String?) { self = text.map(TemplateValue.text) ?? .missing }
    init(_ number: Int) { self = .number(number) }
    init(_ flag: Bool) { self = .flag(flag) }
    init<T: TemplateObject>(_ object: T) { self = .object(object) }
    init<T: TemplateObject>(_ object: T?) { self = object.map { .object($0) } ?? .missing }
    init<T: TemplateObject>(_ items: [T]) { self = .list(items.map { .object($0) }) }
    init<T: TemplateObject>(_ items: [T]?) { self = items.map { .list($0.map { .object($0) }) } ?? .missing }

    /// A section draws nothing for a missing value, `false` or an empty list.
    var isFalsy: Bool {
        switch self {
        case .missing: true
        case .flag(let flag): !flag
        case .list(let items): items.isEmpty
        default: false
        }
    }

    /// The field `name` of an object; every other value has no fields.
    func field(_ name: String) -> TemplateValue {
        if case .object(let object) = self { return object.field(name) }
        return .missing
    }
}

/// A value with named fields, such as a view model.
protocol TemplateObject {
    /// The field's value, `.missing` for a name the object does not have.
    func field(_ name: String) -> TemplateValue
}
