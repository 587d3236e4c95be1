/// Formats 1 and 2: every record with its whole path, every string spelled out, 32-bit lengths.
///
/// Read for archives of earlier builds; written only when asked (`ArchiveCodec.encode(_:limits:formatVersion:)`).
enum ArchiveFormat2 {
    /// The payload of `archive` in format 2.
    static func writePayload(_ archive: RestorationArchive, to writer: inout ByteWriter) {
        writer.append(archive.header.generation)
        writer.append(archive.header.timestamp)
        writer.append(archive.header.buildVersion)
        write(archive.applicationValues, to: &writer)
        writer.append(UInt32(archive.controllers.count))
        for controller in archive.controllers { write(controller, to: &writer) }
        writer.append(UInt32(archive.objects.count))
        for object in archive.objects { write(object, to: &writer) }
    }

    // MARK: Writing

    static func write(_ state: [String: StateValue], to writer: inout ByteWriter) {
        write(StateValues(state), to: &writer)
    }

    static func write(_ state: StateValues, to writer: inout ByteWriter) {
        writer.append(UInt32(state.count))
        for entry in state.entries {
            writer.append(entry.key)
            write(entry.value, to: &writer)
        }
    }

    static func write(_ value: StateValue, to writer: inout ByteWriter) {
        writer.append(value.tag)
        switch value {
        case .int(let number): writer.append(UInt64(bitPattern: number))
        case .double(let number): writer.append(number.bitPattern)
        case .bool(let flag): writer.append(UInt8(flag ? 1 : 0))
        case .string(let text): writer.append(text)
        case .strings(let list):
            writer.append(UInt32(list.count))
            for text in list { writer.append(text) }
        case .bytes(let raw):
            writer.append(UInt32(raw.count))
            writer.append(raw: raw)
        }
    }

    static func write(_ controller: ArchivedController, to writer: inout ByteWriter) {
        writer.append(UInt32(controller.path.count))
        for identifier in controller.path { writer.append(identifier) }
        writer.append(controller.className)
        if let name = controller.restorationClassName {
            writer.append(UInt8(1))
            writer.append(name)
        } else {
            writer.append(UInt8(0))
        }
        writer.append(UInt32(controller.relationships.count))
        for relationship in controller.relationships {
            writer.append(relationship.kind.rawValue)
            writer.append(relationship.identifier)
        }
        write(controller.stateValues, to: &writer)
        writer.append(UInt32(controller.views.count))
        for view in controller.views {
            writer.append(view.identifier)
            writer.append(view.className)
            write(view.stateValues, to: &writer)
        }
    }

    static func write(_ object: ArchivedObject, to writer: inout ByteWriter) {
        writer.append(UInt32(object.path.count))
        for identifier in object.path { writer.append(identifier) }
        writeOptional(object.restorationClassName, to: &writer)
        write(object.state, to: &writer)
    }

    private static func writeOptional(_ text: String?, to writer: inout ByteWriter) {
        if let text {
            writer.append(UInt8(1))
            writer.append(text)
        } else {
            writer.append(UInt8(0))
        }
    }

    // MARK: Reading

    static func readPayload(from reader: inout ByteReader, formatVersion: UInt16) throws(ArchiveError) -> RestorationArchive {
        let generation = try reader.readUInt64("generation")
        let timestamp = try reader.readUInt64("timestamp")
        let build = try reader.readString("build version")
        let header = ArchiveHeader(formatVersion: formatVersion, buildVersion: build, timestamp: timestamp, generation: generation)
        let applicationState = try readState(from: &reader)
        let count = try reader.readCount("controller count", minimumItemSize: 14)
        var controllers: [ArchivedController] = []
        controllers.reserveCapacity(count)
        // The paths go into one table, as preservation and format 3 make them.
        var paths = PathTableBuilder()
        for _ in 0..<count {
            try reader.charge()
            controllers.append(try readController(from: &reader, formatVersion: formatVersion, paths: &paths))
        }
        let table = paths.build()
        for index in controllers.indices {
            controllers[index].location = PathReference(table: table, node: controllers[index].location.node)
        }
        var objects: [ArchivedObject] = []
        if formatVersion >= 2 {
            let objectCount = try reader.readCount("object count", minimumItemSize: 9)
            for _ in 0..<objectCount {
                try reader.charge()
                objects.append(try readObject(from: &reader))
            }
        }
        return RestorationArchive(header: header, applicationState: applicationState, controllers: controllers, objects: objects)
    }

    static func readState(from reader: inout ByteReader) throws(ArchiveError) -> [String: StateValue] {
        let count = try reader.readCount("state entry count", minimumItemSize: 6)
        var state: [String: StateValue] = [:]
        for _ in 0..<count {
            try reader.charge()
            let start = reader.offset
            let key = try reader.readString("state key")
            guard state[key] == nil else { throw reader.fault(at: start, "state key '\(key)' appears twice") }
            state[key] = try readValue(from: &reader)
        }
        return state
    }

    static func readValue(from reader: inout ByteReader) throws(ArchiveError) -> StateValue {
        let start = reader.offset
        switch try reader.readUInt8("value tag") {
        case 1: return .int(Int64(bitPattern: try reader.readUInt64("integer")))
        case 2: return .double(Double(bitPattern: try reader.readUInt64("double")))
        case 3:
            let flag = try reader.readUInt8("Boolean")
            guard flag <= 1 else { throw reader.fault(at: start + 1, "Boolean is \(flag), not 0 or 1") }
            return .bool(flag == 1)
        case 4: return .string(try reader.readString("string"))
        case 5:
            let count = try reader.readCount("string list count", minimumItemSize: 4)
            var list: [String] = []
            for _ in 0..<count { list.append(try reader.readString("string list item")) }
            return .strings(list)
        case 6: return .bytes(try reader.readBytes("bytes"))
        case let tag: throw reader.fault(at: start, "unknown value tag \(tag)")
        }
    }

    static func readController(
        from reader: inout ByteReader, formatVersion: UInt16, paths: inout PathTableBuilder
    ) throws(ArchiveError) -> ArchivedController {
        let start = reader.offset
        let depth = try reader.readCount("path length", minimumItemSize: 4)
        guard depth > 0 else { throw reader.fault(at: start, "a controller's path is empty") }
        var path: [String] = []
        for _ in 0..<depth { path.append(try reader.readString("path identifier")) }
        // Inserting the path makes at most one node per identifier.
        try reader.charge(path.count)
        let className = try reader.readString("class name")
        var restorationClassName: String?
        switch try reader.readUInt8("restoration class flag") {
        case 0: restorationClassName = nil
        case 1: restorationClassName = try reader.readString("restoration class name")
        case let flag: throw reader.fault(at: reader.offset - 1, "restoration class flag is \(flag), not 0 or 1")
        }
        let count = try reader.readCount("relationship count", minimumItemSize: 5)
        var relationships: [ArchivedRelationship] = []
        for _ in 0..<count {
            try reader.charge()
            let raw = try reader.readUInt8("relationship kind")
            guard let kind = ArchivedRelationship.Kind(rawValue: raw) else {
                throw reader.fault(at: reader.offset - 1, "unknown relationship kind \(raw)")
            }
            relationships.append(ArchivedRelationship(kind, try reader.readString("relationship identifier")))
        }
        let state = try readState(from: &reader)
        var views: [ArchivedView] = []
        if formatVersion >= 2 {
            let viewCount = try reader.readCount("view count", minimumItemSize: 12)
            for _ in 0..<viewCount {
                try reader.charge()
                let identifier = try reader.readString("view identifier")
                let viewClass = try reader.readString("view class")
                views.append(ArchivedView(identifier: identifier, className: viewClass, state: StateValues(try readState(from: &reader))))
            }
        }
        return ArchivedController(
            location: PathReference(table: .empty, node: paths.insert(path: path)), className: className,
            restorationClassName: restorationClassName, relationships: relationships, state: StateValues(state), views: views)
    }

    static func readObject(from reader: inout ByteReader) throws(ArchiveError) -> ArchivedObject {
        let start = reader.offset
        let depth = try reader.readCount("object path length", minimumItemSize: 4)
        guard depth > 0 else { throw reader.fault(at: start, "an object's path is empty") }
        var path: [String] = []
        for _ in 0..<depth { path.append(try reader.readString("object path identifier")) }
        var restorationClassName: String?
        switch try reader.readUInt8("object restoration class flag") {
        case 0: restorationClassName = nil
        case 1: restorationClassName = try reader.readString("object restoration class name")
        case let flag: throw reader.fault(at: reader.offset - 1, "object restoration class flag is \(flag), not 0 or 1")
        }
        return ArchivedObject(path: path, restorationClassName: restorationClassName, state: try readState(from: &reader))
    }
}
