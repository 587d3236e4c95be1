/// Restoration paths stored once for a whole hierarchy: a node is its parent node and one identifier,
/// so a controller's path costs one node whatever its depth, and every prefix is shared.
///
/// Node 0 is the empty path; every other node's parent is a smaller node. Immutable once made, so
/// that the records of an archive can share it across threads.
final class PathTable: Sendable {
    /// Each node's parent node (`parents[0]` is 0).
    let parents: [Int32]
    /// Each node's last identifier (`identifiers[0]` is empty).
    let identifiers: [String]
    /// Each node's depth: its path's length.
    let depths: [Int32]

    init(parents: [Int32], identifiers: [String], depths: [Int32]) {
        self.parents = parents
        self.identifiers = identifiers
        self.depths = depths
    }

    /// The table of the empty path alone.
    static let empty = PathTable(parents: [0], identifiers: [""], depths: [0])

    /// A table of `path` alone: its node is `path.count`.
    convenience init(path: [String]) {
        self.init(
            parents: [0] + (0..<Int32(path.count)).map { $0 }, identifiers: [""] + path,
            depths: (0...Int32(path.count)).map { $0 })
    }

    /// The identifiers from the root to `node`.
    func path(of node: Int32) -> [String] {
        var path = [String](repeating: "", count: Int(depths[Int(node)]))
        var current = Int(node)
        var index = path.count - 1
        while index >= 0 {
            path[index] = identifiers[current]
            current = Int(parents[current])
            index -= 1
        }
        return path
    }
}

/// A path in a `PathTable`: a table and a node, compared and hashed by the identifiers it stands for.
struct PathReference: Hashable, Sendable {
    let table: PathTable
    let node: Int32

    init(table: PathTable, node: Int32) {
        self.table = table
        self.node = node
    }

    /// A reference to `path`, in a table of its own.
    init(path: [String]) {
        self.init(table: PathTable(path: path), node: Int32(path.count))
    }

    /// The identifiers from the root.
    var path: [String] { table.path(of: node) }

    /// How many identifiers the path has.
    var depth: Int { Int(table.depths[Int(node)]) }

    /// The last identifier, or nil for the empty path.
    var last: String? { node == 0 ? nil : table.identifiers[Int(node)] }

    /// Whether the path is `other`, without building an array.
    func equals(_ other: [String]) -> Bool {
        guard depth == other.count else { return false }
        var current = Int(node)
        for identifier in other.reversed() {
            guard table.identifiers[current] == identifier else { return false }
            current = Int(table.parents[current])
        }
        return true
    }

    static func == (lhs: PathReference, rhs: PathReference) -> Bool {
        var left = Int(lhs.node)
        var right = Int(rhs.node)
        guard lhs.table.depths[left] == rhs.table.depths[right] else { return false }
        while left != 0 {
            if lhs.table === rhs.table, left == right { return true }
            guard lhs.table.identifiers[left] == rhs.table.identifiers[right] else { return false }
            left = Int(lhs.table.parents[left])
            right = Int(rhs.table.parents[right])
        }
        return true
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(depth)
        var current = Int(node)
        while current != 0 {
            hasher.combine(table.identifiers[current])
            current = Int(table.parents[current])
        }
    }
}

/// Builds a `PathTable` whose nodes are distinct paths: one node per (parent, identifier).
struct PathTableBuilder {
    private(set) var parents: [Int32] = [0]
    private(set) var identifiers: [String] = [""]
    private(set) var depths: [Int32] = [0]
    private var nodes: [Key: Int32] = [:]

    private struct Key: Hashable {
        var parent: Int32
        var identifier: String
    }

    init(capacity: Int = 0) {
        parents.reserveCapacity(capacity + 1)
        identifiers.reserveCapacity(capacity + 1)
        depths.reserveCapacity(capacity + 1)
        nodes.reserveCapacity(capacity)
    }

    var count: Int { parents.count }

    /// The node of `identifier` under `parent`, if there is one.
    func node(_ identifier: String, under parent: Int32) -> Int32? {
        nodes[Key(parent: parent, identifier: identifier)]
    }

    /// The node of `identifier` under `parent`, added if new.
    mutating func insert(_ identifier: String, under parent: Int32) -> Int32 {
        let next = Int32(parents.count)
        // One hash: the subscript with a default inserts `next` when the key is new.
        let node = Self.value(&nodes[Key(parent: parent, identifier: identifier), default: next])
        guard node == next else { return node }
        parents.append(parent)
        identifiers.append(identifier)
        depths.append(depths[Int(parent)] + 1)
        return node
    }

    private static func value(_ slot: inout Int32) -> Int32 { slot }

    /// The node of a whole path, added with its prefixes if new.
    mutating func insert(path: [String]) -> Int32 {
        var node: Int32 = 0
        for identifier in path { node = insert(identifier, under: node) }
        return node
    }

    /// The node of a whole path, if it was inserted.
    func node(path: some Sequence<String>) -> Int32? {
        var node: Int32 = 0
        for identifier in path {
            guard let next = self.node(identifier, under: node) else { return nil }
            node = next
        }
        return node
    }

    /// The identifiers from the root to `node`.
    func path(of node: Int32) -> [String] {
        PathTable(parents: parents, identifiers: identifiers, depths: depths).path(of: node)
    }

    /// The finished table.
    func build() -> PathTable { PathTable(parents: parents, identifiers: identifiers, depths: depths) }
}
