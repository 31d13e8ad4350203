import Foundation
import GramgenCore
#if canImport(Glibc)
import Glibc
#endif

/// The small file toolkit of the image cache: tab-separated record lines read and written without
/// Foundation's coders, whole-file reads, atomic writes and folder listings with plain system calls.
/// A cache of ten thousand images is read and checked on every build, so each step here is kept
/// to one pass over bytes.
enum CacheFiles {
    // MARK: Record lines

    /// A field with tab, newline, carriage return and backslash escaped, so it fits in one column.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 0x09: out += [0x5C, 0x74]  // \t
            case 0x0A: out += [0x5C, 0x6E]  // \n
            case 0x0D: out += [0x5C, 0x72]  // \r
            case 0x5C: out += [0x5C, 0x5C]  // \\
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text of an escaped field; nil when an escape is not one `escape` writes.
    static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        guard field.contains(0x5C) else { return String(decoding: field, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            index += 1
            guard byte == 0x5C else {
                out.append(byte)
                continue
            }
            guard index < field.endIndex else { return nil }
            switch field[index] {
            case 0x74: out.append(0x09)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x5C: out.append(0x5C)
            default: return nil
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The complete lines of `bytes` (a last line without its newline was cut short and is left out),
    /// each split at tabs.
    static func records(_ bytes: [UInt8]) -> [[ArraySlice<UInt8>]] {
        var records: [[ArraySlice<UInt8>]] = []
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            records.append(bytes[start..<end].split(separator: 0x09, omittingEmptySubsequences: false))
            start = end + 1
        }
        return records
    }

    /// Decimal integer of a field (optional minus sign, digits only); nil when it does not fit in
    /// 64 bits. A time in nanoseconds has 19 digits (since 2001).
    static func integer(_ field: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        var negative = false
        var index = field.startIndex
        if index < field.endIndex, field[index] == 0x2D {
            negative = true
            index += 1
        }
        guard index < field.endIndex, field.endIndex - index <= 19 else { return nil }
        while index < field.endIndex {
            let digit = field[index] &- 0x30
            guard digit < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflowAgain else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    // MARK: Files

    /// The whole file, or nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        // Read as any input is: a regular file, bounded, never waited on (a FIFO in its place).
        guard case .success(let data) = InputFile.read(atPath: path, limit: InputFile.maxMediaBytes) else { return nil }
        return [UInt8](data)
    }

    /// Every name in a folder but `.` and `..`; empty when it cannot be listed.
    static func names(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
