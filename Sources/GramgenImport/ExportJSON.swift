import Foundation
import GramgenCore

/// A JSON value read loosely: Instagram's export has changed shape between years (arrays vs.
/// wrapper objects, fields present or not), so readers probe for what is there instead of
/// decoding one fixed schema and failing on the next variant. Every string is repaired with
/// `MojibakeRepair` as it is read, so no caller can forget to.
enum ExportJSON: Decodable, Equatable {
    case object([String: ExportJSON])
    case array([ExportJSON])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(MojibakeRepair.repair(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([ExportJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ExportJSON].self))
        }
    }

    /// An export's JSON files are a few megabytes even for large accounts.
    static let maxBytes = InputFile.maxMediaBytes

    /// Reads and parses a file; `name` is how messages refer to it (its path inside the export).
    static func load(_ url: URL, name: String) throws -> ExportJSON {
        let data: Data
        switch InputFile.read(atPath: url.path, limit: maxBytes) {
        case .success(let bytes): data = bytes
        case .failure(let failure): throw ImportError.unreadableJSON(file: name, detail: failure.message)
        }
        do {
            return try JSONDecoder().decode(ExportJSON.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw ImportError.unreadableJSON(file: name, detail: detail ?? context.debugDescription)
        } catch {
            throw ImportError.unreadableJSON(file: name, detail: "\(error)")
        }
    }

    subscript(key: String) -> ExportJSON? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The value of a key spelled in any case: Instagram renamed `"Profile Photo"` to
    /// `"Profile photo"` in 2026, and other keys may follow.
    func value(anyCase key: String) -> ExportJSON? {
        guard case .object(let fields) = self else { return nil }
        if let exact = fields[key] { return exact }
        let lowered = key.lowercased()
        return fields.first { $0.key.lowercased() == lowered }?.value
    }

    var array: [ExportJSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// A string with surrounding white space removed, or nil when that leaves nothing.
    var text: String? {
        guard let trimmed = string?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// Whole seconds since 1970; exports write timestamps as numbers, rarely as strings.
    var timestamp: Int64? {
        switch self {
        case .number(let value) where value.isFinite && value > 0 && value < 1e11: return Int64(value)
        case .string(let text): return Int64(text).flatMap { $0 > 0 ? $0 : nil }
        default: return nil
        }
    }
}
