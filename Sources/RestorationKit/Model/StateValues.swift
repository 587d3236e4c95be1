/// Saved values sorted by key: what a coder and an archived record hold.
///
/// Restorable state is a handful of values, so a sorted array serves better than a dictionary: no
/// hashing to store or find a key (a binary search of a few strings), one allocation, and the order
/// the archive writes them in. `[String: StateValue]` is what the public API shows of it.
struct StateValues: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var key: String
        var value: StateValue
    }

    /// The entries, in increasing key order, each key once.
    private(set) var entries: [Entry] = []

    /// No values.
    init() {}

    /// Room for `capacity` values.
    init(capacity: Int) { entries.reserveCapacity(capacity) }

    /// The values of `dictionary`.
    init(_ dictionary: [String: StateValue]) {
        entries = dictionary.map { Entry(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
    }

    /// Entries already in increasing key order (the reader checks it).
    init(sorted entries: [Entry]) { self.entries = entries }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The values as a dictionary.
    var dictionary: [String: StateValue] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    /// The value under `key`; setting nil removes it.
    subscript(key: String) -> StateValue? {
        get {
            let index = position(of: key)
            return index < entries.count && entries[index].key == key ? entries[index].value : nil
        }
        set {
            // Keys usually arrive in order: a new last key is found without a search (`position(of:)`)
            // and inserted at the end, which is an append.
            let index = position(of: key)
            let present = index < entries.count && entries[index].key == key
            switch (newValue, present) {
            case (let value?, true): entries[index].value = value
            case (let value?, false): entries.insert(Entry(key: key, value: value), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// The first index whose key is not below `key`.
    private func position(of key: String) -> Int {
        // Keys usually arrive in order: check the end first.
        if let last = entries.last, last.key < key { return entries.count }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
