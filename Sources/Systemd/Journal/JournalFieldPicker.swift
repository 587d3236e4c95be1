#if canImport(Glibc)
import Glibc
#endif

/// Picks a few named fields out of journal entries, for reading many entries fast.
///
/// ``JournalReader/currentFields()`` builds a dictionary of every field of an entry; a reader that
/// needs a handful of them from each of thousands of entries fills a picker instead
/// (``JournalReader/pick(_:)``): one walk over the entry's data, as `journalctl` does, copying only
/// the wanted values into a buffer the picker reuses. As with `currentFields()`, a field that repeats
/// gives its last value and values are decoded as UTF-8 with replacement characters.
///
/// ```swift
/// var picker = JournalFieldPicker(["MESSAGE_ID", "UNIT"])
/// while try reader.next() {
///     try reader.pick(&picker)
///     if picker.value(of: 1) == "myapp.service" { … }
/// }
/// ```
package struct JournalFieldPicker: Sendable {
    /// The wanted field names; values are asked for by position in this list.
    package let names: [String]
    /// The positions in `names` of the names of each length (index: the length).
    private let positionsByLength: [[Int]]
    private let nameBytes: [[UInt8]]
    /// The current entry's wanted values, one after another.
    private var storage: [UInt8] = []
    /// Where each wanted value lies in `storage`, nil when the entry has none.
    private var ranges: [Range<Int>?]

    /// A picker for `names` (valid journal field names; longer than 64 bytes never match).
    package init(_ names: [String]) {
        self.names = names
        nameBytes = names.map { Array($0.utf8) }
        var positions = [[Int]](repeating: [], count: JournalFieldName.maximumLength + 1)
        for (position, bytes) in nameBytes.enumerated() where bytes.count < positions.count {
            positions[bytes.count].append(position)
        }
        positionsByLength = positions
        ranges = Array(repeating: nil, count: names.count)
    }

    /// The value of the field at `position` in ``names`` in the entry picked last, or nil.
    package func value(of position: Int) -> String? {
        ranges[position].map { range in
            storage.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
        }
    }

    /// Whether the entry picked last has the field at `position`, whatever its value; allocates nothing.
    package func contains(_ position: Int) -> Bool {
        ranges[position] != nil
    }

    /// Whether the entry picked last has the field at `position` with exactly `value`; allocates nothing.
    package func has(_ position: Int, equalTo value: String) -> Bool {
        guard let range = ranges[position] else { return false }
        return storage[range].elementsEqual(value.utf8)
    }

    /// The picked fields of the entry picked last, by name.
    package var fields: [String: String] {
        var fields: [String: String] = [:]
        fields.reserveCapacity(names.count)
        for position in names.indices {
            if let value = value(of: position) { fields[names[position]] = value }
        }
        return fields
    }

    /// Forgets the last entry's values.
    mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        for position in ranges.indices { ranges[position] = nil }
    }

    /// Keeps the value of `data` (one `NAME=value` item of an entry) if its name is wanted.
    mutating func offer(_ data: UnsafeRawBufferPointer) {
        guard let base = data.baseAddress,
              let found = memchr(base, Int32(UInt8(ascii: "=")), min(data.count, positionsByLength.count))
        else { return }
        let nameLength = UnsafeRawPointer(found) - base
        for position in positionsByLength[nameLength] {
            let matches = nameBytes[position].withUnsafeBytes { memcmp($0.baseAddress!, base, nameLength) == 0 }
            guard matches else { continue }
            let start = storage.count
            storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[(nameLength + 1)...]))
            ranges[position] = start..<storage.count
            return
        }
    }
}
