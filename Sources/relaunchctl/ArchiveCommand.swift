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
            status is then 1.
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
                guard let read = try ArchiveFile(directory: folder, fileName: name).read() else {
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
enum ArchiveText {
    static func text(_ decoded: DecodedArchive) -> String {
        let header = decoded.archive.header
        var out = "archive: format \(header.formatVersion), build \(header.buildVersion), "
        out += "generation \(header.generation), \(decoded.byteCount) bytes, written at µs \(header.timestamp)\n"
        if let warning = decoded.warning { out += "warning: \(warning)\n" }
        if !decoded.archive.applicationState.isEmpty {
            out += "application state:\n"
            for (key, value) in decoded.archive.applicationState.sorted(by: { $0.key < $1.key }) {
                out += "    \(key) = \(describe(value))\n"
            }
        }
        for controller in decoded.archive.controllers {
            out += controller.path.joined(separator: "/") + "\n"
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
        out += "\"applicationState\": \(jsonObject(decoded.archive.applicationState)), \"controllers\": ["
        out += decoded.archive.controllers.map { controller in
            "{\"path\": \(jsonString(controller.path.joined(separator: "/"))), "
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
