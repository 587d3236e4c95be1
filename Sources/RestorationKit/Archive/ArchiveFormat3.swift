/// Format 3: paths as a table of nodes, names in a table of strings, counts and indexes as varints.
///
/// Payload (after the 16-byte prefix `ArchiveCodec` describes):
///
///     generation u64, timestamp u64, build version (varint length + UTF-8)
///     predefined strings used: P (strings 0..<P are the first P of `predefinedStrings`)
///     strings: count, then each as varint length + UTF-8 (they are numbered from P on)
///     application state
///     path nodes: count N, then for node 1...N: parent node (0 = the root, else below this node),
///                 identifier (a string index)
///     controllers: count, then each: node (1...N), class (string index), restoration class
///                 (0, or string index + 1), relationships (count, then kind u8 + identifier string
///                 index), state, views (count, then identifier and class string indexes + state)
///     objects: count, then each: node (1...N), restoration class (0 or string index + 1), state
///
/// A state is a count and, sorted by key, key (string index) + tag + value: an integer as a zigzag
/// varint, a double as 8 bytes, a Boolean as a byte, a string as varint length + UTF-8, a list of
/// strings as a count and string indexes, bytes as varint length + bytes.
///
/// Every path is one node whatever its depth (a chain of 1,000 presentations no longer stores 500
/// identifiers per controller), and a class name, state key or identifier is stored once however
/// many records use it, so an archive's size per controller does not depend on the hierarchy's
/// shape. The same archive always encodes to the same bytes: strings are numbered in the order
/// they are first written.
enum ArchiveFormat3 {
    /// Strings an archive refers to without writing them, like HPACK's static table: UIKit's
    /// application-level keys, the engine's own keys and its built-in classes. The list only ever
    /// grows at the end (an archive says how many of them it counts on).
    static let predefinedStrings: [String] = [
        StateCoder.bundleVersionKey, StateCoder.systemVersionKey, StateCoder.timestampKey,
        StateCoder.userInterfaceIdiomKey, StateCoder.storyboardKey, StateCoder.storyboardIdentifierKey,
        ScrollView.contentOffsetXKey, ScrollView.contentOffsetYKey, TextView.textKey, TextView.selectionKey,
        Switch.isOnKey, TableView.selectedIdentifiersKey, TableView.firstVisibleIdentifierKey,
        "RestorationKit.ViewController", "RestorationKit.NavigationController", "RestorationKit.TabBarController",
        "RestorationKit.TableViewController", "RestorationKit.View", "RestorationKit.ScrollView",
        "RestorationKit.TextView", "RestorationKit.TableView", "RestorationKit.Switch",
    ]

    /// `predefinedStrings` by string.
    private static let predefinedIndex: StringIndex = {
        var index = StringIndex(expected: predefinedStrings.count)
        for string in predefinedStrings { _ = index.number(of: string) }
        return index
    }()

    // MARK: Writing

    static func writePayload(_ archive: RestorationArchive, to writer: inout ByteWriter) {
        var strings = StringTable(expected: 16 + archive.controllers.count * 2)
        var nodes = NodeWriter(expected: archive.controllers.count)
        // The body first, into its own buffer, so that the string and node tables can precede it.
        var body = ByteWriter(capacity: 64 + archive.controllers.count * 24)
        write(archive.applicationValues, to: &body, strings: &strings)
        // By index: `map` would copy each record (retaining all of its parts) to read its location.
        var controllerNodes: [Int32] = []
        controllerNodes.reserveCapacity(archive.controllers.count)
        for index in archive.controllers.indices {
            controllerNodes.append(nodes.node(of: archive.controllers[index].location, strings: &strings))
        }
        let objectNodes = archive.objects.map { nodes.node(of: $0.path, strings: &strings) }
        var records = ByteWriter(capacity: archive.controllers.count * 24)
        records.appendVarint(archive.controllers.count)
        // Fields read in place (`controllers[index].field`): copying a record retains all of its parts.
        let controllers = archive.controllers
        for index in controllers.indices {
            records.appendVarint(Int(controllerNodes[index]))
            records.appendVarint(strings.index(of: controllers[index].className))
            if let name = controllers[index].restorationClassName {
                records.appendVarint(strings.index(of: name) + 1)
            } else {
                records.append(UInt8(0))
            }
            records.appendVarint(controllers[index].relationships.count)
            for relationship in controllers[index].relationships {
                records.append(relationship.kind.rawValue)
                records.appendVarint(strings.index(ofIdentifier: relationship.identifier))
            }
            write(controllers[index].stateValues, to: &records, strings: &strings)
            records.appendVarint(controllers[index].views.count)
            for view in controllers[index].views {
                records.appendVarint(strings.index(of: view.identifier))
                records.appendVarint(strings.index(of: view.className))
                write(view.stateValues, to: &records, strings: &strings)
            }
        }
        records.appendVarint(archive.objects.count)
        for (object, node) in zip(archive.objects, objectNodes) {
            records.appendVarint(Int(node))
            records.appendVarint(object.restorationClassName.map { strings.index(of: $0) + 1 } ?? 0)
            write(object.state, to: &records, strings: &strings)
        }

        writer.append(archive.header.generation)
        writer.append(archive.header.timestamp)
        writer.appendShortString(archive.header.buildVersion)
        writer.appendVarint(predefinedStrings.count)
        writer.appendVarint(strings.list.count)
        for string in strings.list { writer.appendShortString(string) }
        writer.append(contentsOf: body)
        writer.appendVarint(nodes.parents.count)
        for (parent, identifier) in zip(nodes.parents, nodes.identifiers) {
            writer.appendVarint(Int(parent))
            writer.appendVarint(identifier)
        }
        writer.append(contentsOf: records)
    }

    private static func write(_ state: [String: StateValue], to writer: inout ByteWriter, strings: inout StringTable) {
        write(StateValues(state), to: &writer, strings: &strings)
    }

    private static func write(_ state: StateValues, to writer: inout ByteWriter, strings: inout StringTable) {
        writer.appendVarint(state.count)
        for entry in state.entries {
            writer.appendVarint(strings.index(of: entry.key))
            write(entry.value, to: &writer, strings: &strings)
        }
    }

    private static func write(_ value: StateValue, to writer: inout ByteWriter, strings: inout StringTable) {
        writer.append(value.tag)
        switch value {
        case .int(let number): writer.appendVarint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
        case .double(let number): writer.append(number.bitPattern)
        case .bool(let flag): writer.append(UInt8(flag ? 1 : 0))
        case .string(let text): writer.appendShortString(text)
        case .strings(let list):
            writer.appendVarint(list.count)
            for text in list { writer.appendVarint(strings.index(ofIdentifier: text)) }
        case .bytes(let raw):
            writer.appendVarint(raw.count)
            writer.append(raw: raw)
        }
    }

    /// Strings numbered in the order they are first written.
    ///
    /// A record repeats a few names (its class, its restoration class, its state keys) that the
    /// records before it used too: `index(of:)` finds those among the last eight without hashing.
    /// Identifiers are mostly new: `index(ofIdentifier:)` goes straight to the hash table.
    private struct StringTable {
        private var numbers: StringIndex
        private var recent: [(string: String, length: Int, index: Int)] = []
        private var next = 0

        /// A table sized for about `expected` distinct strings.
        init(expected: Int) {
            numbers = StringIndex(expected: expected)
            recent.reserveCapacity(8)
        }

        /// The strings to write: those that are not predefined.
        var list: [String] { numbers.strings }

        /// The index of a name or key (a predefined string's, if it is one).
        mutating func index(of string: String) -> Int {
            let length = string.utf8.count
            for entry in recent where entry.length == length && entry.string == string { return entry.index }
            let number =
                ArchiveFormat3.predefinedIndex.number(ofExisting: string)
                ?? ArchiveFormat3.predefinedStrings.count + numbers.number(of: string).number
            if recent.count < 8 {
                recent.append((string, length, number))
            } else {
                recent[next] = (string, length, number)
                next = (next + 1) & 7
            }
            return number
        }

        /// The index of an identifier. A container names its children in the order their nodes were
        /// numbered, so the string after the last one found is tried before hashing.
        mutating func index(ofIdentifier string: String) -> Int {
            if predicted < numbers.count, numbers.strings[predicted] == string {
                predicted += 1
                return ArchiveFormat3.predefinedStrings.count + predicted - 1
            }
            let number = numbers.number(of: string).number
            predicted = number + 1
            return ArchiveFormat3.predefinedStrings.count + number
        }

        private var predicted = 0
    }

    /// The nodes written: those of the records' tables, numbered parents first (node 0 is the root).
    private struct NodeWriter {
        var parents: [Int32] = []
        var identifiers: [Int] = []

        /// Room for `expected` nodes (one per controller, usually).
        init(expected: Int) {
            parents.reserveCapacity(expected)
            identifiers.reserveCapacity(expected)
        }

        /// The table of the last record (usually every record's) and the node written for each of its
        /// nodes (-1: not yet); the other tables' are kept aside.
        private var table: PathTable?
        private var memo: [Int32] = []
        private var otherMemos: [ObjectIdentifier: [Int32]] = [:]
        /// Nodes by parent and identifier index, for objects' paths (made when first needed).
        private var byName: [Key: Int32]?

        private struct Key: Hashable {
            var parent: Int32
            var identifier: Int
        }

        mutating func node(of location: PathReference, strings: inout StringTable) -> Int32 {
            let source = location.table
            if table !== source {
                if let table { otherMemos[ObjectIdentifier(table)] = memo }
                if let kept = otherMemos.removeValue(forKey: ObjectIdentifier(source)) {
                    memo = kept
                } else {
                    memo = [Int32](repeating: -1, count: source.parents.count)
                    memo[0] = 0
                }
                table = source
            }
            // Records come parents first: the parent is usually written already.
            let node = Int(location.node)
            if memo[node] >= 0 { return memo[node] }
            let parent = Int(source.parents[node])
            if memo[parent] >= 0 {
                let added = add(parent: memo[parent], identifier: strings.index(ofIdentifier: source.identifiers[node]))
                memo[node] = added
                return added
            }
            var unknown: [Int32] = []
            var current = location.node
            while memo[Int(current)] < 0 {
                unknown.append(current)
                current = source.parents[Int(current)]
            }
            var written = memo[Int(current)]
            while let next = unknown.popLast() {
                written = add(parent: written, identifier: strings.index(ofIdentifier: source.identifiers[Int(next)]))
                memo[Int(next)] = written
            }
            return written
        }

        mutating func node(of path: [String], strings: inout StringTable) -> Int32 {
            if byName == nil {
                var index: [Key: Int32] = [:]
                for (offset, parent) in parents.enumerated() {
                    index[Key(parent: parent, identifier: identifiers[offset])] = Int32(offset + 1)
                }
                byName = index
            }
            var node: Int32 = 0
            for identifier in path {
                let key = Key(parent: node, identifier: strings.index(ofIdentifier: identifier))
                if let existing = byName?[key] {
                    node = existing
                } else {
                    node = add(parent: node, identifier: key.identifier)
                }
            }
            return node
        }

        private mutating func add(parent: Int32, identifier: Int) -> Int32 {
            parents.append(parent)
            identifiers.append(identifier)
            let node = Int32(parents.count)
            byName?[Key(parent: parent, identifier: identifier)] = node
            return node
        }
    }

    // MARK: Reading

    static func readPayload(from reader: inout ByteReader) throws(ArchiveError) -> RestorationArchive {
        let generation = try reader.readUInt64("generation")
        let timestamp = try reader.readUInt64("timestamp")
        let build = try reader.readShortString("build version")
        let header = ArchiveHeader(formatVersion: 3, buildVersion: build, timestamp: timestamp, generation: generation)

        let predefined = try reader.readIndex("predefined string count", below: predefinedStrings.count + 1)
        let stringCount = try reader.readVarintCount("string count", minimumItemSize: 1)
        var strings = Array(predefinedStrings.prefix(predefined))
        strings.reserveCapacity(predefined + stringCount)
        for _ in 0..<stringCount { strings.append(try reader.readShortString("string")) }

        let applicationValues = try readState(from: &reader, strings: strings)

        let nodeCount = try reader.readVarintCount("path node count", minimumItemSize: 2)
        guard nodeCount < Int(Int32.max) else { throw reader.fault("path node count \(nodeCount) is too large") }
        // Reserved before the first append: an array literal would allocate, then reserving again.
        var parents: [Int32] = []
        var identifiers: [String] = []
        var depths: [Int32] = []
        parents.reserveCapacity(nodeCount + 1)
        identifiers.reserveCapacity(nodeCount + 1)
        depths.reserveCapacity(nodeCount + 1)
        parents.append(0)
        identifiers.append("")
        depths.append(0)
        for node in stride(from: 1, through: nodeCount, by: 1) {
            try reader.charge()
            let parent = try reader.readIndex("path node parent", below: node)
            parents.append(Int32(parent))
            identifiers.append(strings[try reader.readIndex("path node identifier", below: strings.count)])
            depths.append(depths[parent] + 1)
        }
        let table = PathTable(parents: parents, identifiers: identifiers, depths: depths)

        let count = try reader.readVarintCount("controller count", minimumItemSize: 6)
        var controllers: [ArchivedController] = []
        controllers.reserveCapacity(count)
        for _ in 0..<count {
            try reader.charge()
            let start = reader.offset
            let node = try reader.readIndex("controller path node", below: nodeCount + 1)
            guard node > 0 else { throw reader.fault(at: start, "a controller's path is empty") }
            let className = strings[try reader.readIndex("class name", below: strings.count)]
            let restorationClassName = try readOptionalString(from: &reader, strings: strings, "restoration class name")
            let relationshipCount = try reader.readVarintCount("relationship count", minimumItemSize: 2)
            var relationships: [ArchivedRelationship] = []
            relationships.reserveCapacity(relationshipCount)
            for _ in 0..<relationshipCount {
                try reader.charge()
                let raw = try reader.readUInt8("relationship kind")
                guard let kind = ArchivedRelationship.Kind(rawValue: raw) else {
                    throw reader.fault(at: reader.offset - 1, "unknown relationship kind \(raw)")
                }
                relationships.append(ArchivedRelationship(kind, strings[try reader.readIndex("relationship identifier", below: strings.count)]))
            }
            let state = try readState(from: &reader, strings: strings)
            let viewCount = try reader.readVarintCount("view count", minimumItemSize: 3)
            var views: [ArchivedView] = []
            for _ in 0..<viewCount {
                try reader.charge()
                let identifier = strings[try reader.readIndex("view identifier", below: strings.count)]
                let viewClass = strings[try reader.readIndex("view class", below: strings.count)]
                views.append(ArchivedView(identifier: identifier, className: viewClass, state: try readState(from: &reader, strings: strings)))
            }
            // The arrays consumed: the record takes them over instead of being copied into `controllers`.
            controllers.append(
                ArchivedController(
                    location: PathReference(table: table, node: Int32(node)), className: className,
                    restorationClassName: restorationClassName, relationships: consume relationships, state: state,
                    views: consume views))
        }

        let objectCount = try reader.readVarintCount("object count", minimumItemSize: 3)
        var objects: [ArchivedObject] = []
        for _ in 0..<objectCount {
            try reader.charge()
            let start = reader.offset
            let node = try reader.readIndex("object path node", below: nodeCount + 1)
            guard node > 0 else { throw reader.fault(at: start, "an object's path is empty") }
            let restorationClassName = try readOptionalString(from: &reader, strings: strings, "object restoration class name")
            // A node of the shared table, not the path itself: building each object's path here would
            // cost depth × objects, quadratic in the bytes of a forged archive.
            objects.append(
                ArchivedObject(
                    location: PathReference(table: table, node: Int32(node)), restorationClassName: restorationClassName,
                    state: try readState(from: &reader, strings: strings).dictionary))
        }
        return RestorationArchive(header: header, applicationValues: applicationValues, controllers: controllers, objects: objects)
    }

    private static func readOptionalString(
        from reader: inout ByteReader, strings: [String], _ what: String
    ) throws(ArchiveError) -> String? {
        let index = try reader.readIndex(what, below: strings.count + 1)
        return index == 0 ? nil : strings[index - 1]
    }

    private static func readState(from reader: inout ByteReader, strings: [String]) throws(ArchiveError) -> StateValues {
        let count = try reader.readVarintCount("state entry count", minimumItemSize: 3)
        guard count > 0 else { return StateValues() }
        var entries: [StateValues.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            try reader.charge()
            let start = reader.offset
            let key = strings[try reader.readIndex("state key", below: strings.count)]
            if let previous = entries.last?.key, !(previous < key) {
                throw reader.fault(at: start, previous == key ? "state key '\(key)' appears twice" : "state key '\(key)' is out of order")
            }
            entries.append(StateValues.Entry(key: key, value: try readValue(from: &reader, strings: strings)))
        }
        return StateValues(sorted: entries)
    }

    private static func readValue(from reader: inout ByteReader, strings: [String]) throws(ArchiveError) -> StateValue {
        let start = reader.offset
        switch try reader.readUInt8("value tag") {
        case 1:
            let zigzag = try reader.readVarint("integer")
            return .int(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
        case 2: return .double(Double(bitPattern: try reader.readUInt64("double")))
        case 3:
            let flag = try reader.readUInt8("Boolean")
            guard flag <= 1 else { throw reader.fault(at: start + 1, "Boolean is \(flag), not 0 or 1") }
            return .bool(flag == 1)
        case 4: return .string(try reader.readShortString("string"))
        case 5:
            let count = try reader.readVarintCount("string list count", minimumItemSize: 1)
            var list: [String] = []
            list.reserveCapacity(count)
            for _ in 0..<count {
                try reader.charge()
                list.append(strings[try reader.readIndex("string list item", below: strings.count)])
            }
            return .strings(list)
        case 6: return .bytes(try reader.readShortBytes("bytes"))
        case let tag: throw reader.fault(at: start, "unknown value tag \(tag)")
        }
    }
}
