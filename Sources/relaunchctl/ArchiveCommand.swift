import ArgumentParser
import ScenarioKit
import RelaunchContract
import RestorationKit

#if canImport(Glibc)
import Glibc
#endif

/// `relaunchctl archive dump FILE`: a saved restoration archive, readable.
struct ArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Inspect saved restoration archives.",
        subcommands: [Dump.self]
    )
}

extension ArchiveCommand {
    struct Dump: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dump",
            abstract: "Print a restoration archive: its header and every preserved controller.",
            discussion: """
            The app keeps its archive in its state directory (for checkin-demo: \
            /var/lib/checkin-demo/restoration.archive). A damaged archive is refused with the reason \
            the app would log when discarding it (corrupt, unsupported-format, too-large); the exit \
            status is then 1. The app's limits hold: at most 16 MiB is read, and only a regular file. \
            Run as root, it does not follow a symbolic link in the file's place: the app's folder \
            is the app's to change.
            """
        )

        @Argument(help: "The archive file.") var file: String
        @Flag(help: "Print the archive as JSON.") var json = false

        func run() async throws {
            let bytes: [UInt8]
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                throw CLIError.failed(
                    "cannot read \(Echo.quoted(file, limit: 200)): it is a folder; name an archive file, e.g. /var/lib/checkin-demo/restoration.archive")
            }
            do {
                // The app's own limit (16 MiB), and as root no link followed: the app may have put one there.
                guard let read = try ArchiveFile(directory: folder, fileName: name).read(followingLinks: geteuid() != 0) else {
                    throw CLIError.failed("no archive at \(file)")
                }
                bytes = read
            } catch let error as StorageError {
                throw CLIError.failed("cannot read \(file): \(error)")
            }
            let decoded: DecodedArchive
            do {
                decoded = try ArchiveCodec.decode(bytes)
            } catch {
                throw CLIError.failed("\(file) is not a usable archive (reason \(error.discardReason)): \(error)")
            }
            print(json ? ArchiveText.json(decoded) : ArchiveText.text(decoded), terminator: "")
        }

        private var folder: String {
            guard let slash = file.lastIndex(of: "/") else { return "." }
            return slash == file.startIndex ? "/" : String(file[..<slash])
        }

        private var name: String {
            guard let slash = file.lastIndex(of: "/") else { return file }
            return String(file[file.index(after: slash)...])
        }
    }
}

/// Draws a decoded archive for people and for scripts.
///
/// Its size is bounded by the archive's: each controller's path is stored once as a node, but spelled
/// out it costs its depth, so a forged archive of many records under one deep path would print
/// depth × records identifiers. When the paths together are that long (over `pathBudget(for:)`),
/// each path deeper than `shortenedDepth` is shown by its depth and its last identifiers.
enum ArchiveText {
    /// Paths deeper than this are shortened when the whole is over budget.
    static let shortenedDepth = 64
    /// How many last identifiers a shortened path keeps.
    static let keptIdentifiers = 8

    /// The most identifiers the paths of an archive of `byteCount` bytes print in full: a million
    /// (a chain of 1,400 presentations), or eight per byte of a larger archive.
    static func pathBudget(for byteCount: Int) -> Int { max(1_000_000, 8 * byteCount) }

    /// Whether the paths of `decoded` are shortened.
    static func shortensPaths(_ decoded: DecodedArchive) -> Bool {
        decoded.archive.controllers.reduce(0) { $0 + $1.depth } > pathBudget(for: decoded.byteCount)
    }

    /// A controller's path joined with `/`, shortened when `shorten` and it is deep.
    static func path(_ controller: ArchivedController, shorten: Bool) -> String {
        guard shorten, controller.depth > shortenedDepth else { return controller.path.joined(separator: "/") }
        return "…(\(controller.depth - keptIdentifiers) more)/" + controller.pathSuffix(keptIdentifiers).joined(separator: "/")
    }

    static func text(_ decoded: DecodedArchive) -> String {
        let header = decoded.archive.header
        let shorten = shortensPaths(decoded)
        var out = "archive: format \(header.formatVersion), build \(header.buildVersion), "
        out += "generation \(header.generation), \(decoded.byteCount) bytes, written at µs \(header.timestamp)\n"
        if let warning = decoded.warning { out += "warning: \(warning)\n" }
        if shorten {
            out += "warning: the paths hold over \(pathBudget(for: decoded.byteCount)) identifiers in all; "
                + "those deeper than \(shortenedDepth) are shown by their last \(keptIdentifiers)\n"
        }
        if !decoded.archive.applicationState.isEmpty {
            out += "application state:\n"
            for (key, value) in decoded.archive.applicationState.sorted(by: { $0.key < $1.key }) {
                out += "    \(key) = \(describe(value))\n"
            }
        }
        for controller in decoded.archive.controllers {
            out += path(controller, shorten: shorten) + "\n"
            out += "    class \(controller.className)"
            out += controller.restorationClassName.map { ", restoration class \($0)" } ?? ", no restoration class"
            out += "\n"
            for relation in controller.relationships {
                out += "    \(relation.kind) → \(relation.identifier)\n"
            }
            for (key, value) in controller.state.sorted(by: { $0.key < $1.key }) {
                out += "    \(key) = \(describe(value))\n"
            }
            for view in controller.views {
                out += "    view \(view.identifier) (\(view.className))\n"
                for (key, value) in view.state.sorted(by: { $0.key < $1.key }) {
                    out += "        \(key) = \(describe(value))\n"
                }
            }
        }
        return out
    }

    static func json(_ decoded: DecodedArchive) -> String {
        let header = decoded.archive.header
        var out = "{\"formatVersion\": \(header.formatVersion), \"buildVersion\": \(jsonString(header.buildVersion)), "
        out += "\"generation\": \(header.generation), \"timestamp\": \(header.timestamp), \"bytes\": \(decoded.byteCount), "
        out += "\"warning\": \(decoded.warning.map(jsonString) ?? "null"), "
        let shorten = shortensPaths(decoded)
        out += "\"pathsShortened\": \(shorten), "
        out += "\"applicationState\": \(jsonObject(decoded.archive.applicationState)), \"controllers\": ["
        out += decoded.archive.controllers.map { controller in
            "{\"path\": \(jsonString(path(controller, shorten: shorten))), "
                + "\"class\": \(jsonString(controller.className)), "
                + "\"restorationClass\": \(controller.restorationClassName.map(jsonString) ?? "null"), "
                + "\"relationships\": [" + controller.relationships.map {
                    "{\"kind\": \(jsonString("\($0.kind)")), \"identifier\": \(jsonString($0.identifier))}"
                }.joined(separator: ", ") + "], "
                + "\"state\": \(jsonObject(controller.state)), \"views\": [" + controller.views.map {
                    "{\"identifier\": \(jsonString($0.identifier)), \"class\": \(jsonString($0.className)), "
                        + "\"state\": \(jsonObject($0.state))}"
                }.joined(separator: ", ") + "]}"
        }.joined(separator: ", ")
        return out + "]}\n"
    }

    private static func jsonObject(_ state: [String: StateValue]) -> String {
        "{" + state.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)): \(jsonValue($0.value))" }
            .joined(separator: ", ") + "}"
    }

    private static func jsonValue(_ value: StateValue) -> String {
        switch value {
        case .int(let number): "\(number)"
        case .double(let number): number.isFinite ? "\(number)" : "null"
        case .bool(let flag): flag ? "true" : "false"
        case .string(let text): jsonString(text)
        case .strings(let list): "[" + list.map(jsonString).joined(separator: ", ") + "]"
        case .bytes(let bytes): jsonString(hex(bytes))
        }
    }

    private static func describe(_ value: StateValue) -> String {
        switch value {
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .string(let text): jsonString(text)
        case .strings(let list): "[" + list.map(jsonString).joined(separator: ", ") + "]"
        case .bytes(let bytes): "\(bytes.count) bytes " + hex(bytes.prefix(16))
        }
    }

    private static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
