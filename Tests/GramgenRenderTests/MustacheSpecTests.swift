import Foundation
import Testing
@testable import GramgenRender

/// One case of the Mustache specification: a template, its data and partials, and the exact output.
struct MustacheSpecCase: CustomTestStringConvertible, Sendable {
    let file: String
    let name: String
    let template: String
    let data: SpecData
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }

    private struct File: Decodable {
        struct Test: Decodable {
            let name: String
            let template: String
            let data: SpecData
            let partials: [String: String]?
            let expected: String
        }
        let tests: [Test]
    }

    /// Every case of the given spec files, in the files' order.
    static func load(_ files: [String]) -> [MustacheSpecCase] {
        files.flatMap { file -> [MustacheSpecCase] in
            guard let url = Bundle.module.url(forResource: "MustacheSpec/\(file)", withExtension: "json"),
                  let data = try? Data(contentsOf: url),
                  let spec = try? JSONDecoder().decode(File.self, from: data) else { return [] }
            return spec.tests.map {
                MustacheSpecCase(file: file, name: $0.name, template: $0.template, data: $0.data,
                                 partials: $0.partials ?? [:], expected: $0.expected)
            }
        }
    }
}

/// The spec's JSON data as template values: numbers print as JSON writes them (`1.21`), `null` is missing.
indirect enum SpecData: Sendable, Decodable, TemplateObject {
    case null, bool(Bool), number(String), string(String), array([SpecData]), object([String: SpecData])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let whole = try? container.decode(Int64.self) {
            self = .number(String(whole))
        } else if let number = try? container.decode(Double.self) {
            self = .number(String(number))
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([SpecData].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: SpecData].self))
        }
    }

    var value: TemplateValue {
        switch self {
        case .null: .missing
        case .bool(let flag): .flag(flag)
        case .number(let text), .string(let text): .text(text)
        case .array(let items): .list(items.map(\.value))
        case .object: .object(self)
        }
    }

    func field(_ name: String) -> TemplateValue {
        guard case .object(let fields) = self else { return .missing }
        return fields[name]?.value ?? .missing
    }
}

/// gramgen's template engine against every case of the Mustache specification's required files
/// (136 cases) and of its optional dynamic partial names (`{{>*name}}`). Lambdas and inheritance
/// (the other optional files) are not supported: the parser refuses them with a message.
struct MustacheSpecTests {
    static let required = MustacheSpecCase.load(["comments", "delimiters", "interpolation", "inverted", "partials", "sections"])
    static let dynamicNames = MustacheSpecCase.load(["~dynamic-names"])

    @Test("the spec files are all there")
    func complete() {
        #expect(Self.required.count == 136)
        #expect(Self.dynamicNames.count == 21)
    }

    @Test("required spec", arguments: required)
    func required(_ spec: MustacheSpecCase) throws {
        #expect(try Self.render(spec) == spec.expected)
    }

    @Test("optional spec: dynamic names", arguments: dynamicNames)
    func dynamicName(_ spec: MustacheSpecCase) throws {
        #expect(try Self.render(spec) == spec.expected)
    }

    static func render(_ spec: MustacheSpecCase) throws -> String {
        var templates = ["$spec": try TemplateParser(spec.template).parse()]
        for (name, text) in spec.partials { templates[name] = try TemplateParser(text).parse() }
        let bytes = try #require(TemplateRenderer(templates: templates).render("$spec", spec.data.value))
        return String(decoding: bytes, as: UTF8.self)
    }
}
