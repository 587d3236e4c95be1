import RelaunchContract
import RestorationKit

// Apart from ArchiveCommand (and its ArgumentParser): tests/fuzz/targets/archive-dump.swift compiles this
// file with its fuzz entry, to draw every archive the decoder accepts.

/// Draws a decoded archive for people and for scripts.
///
/// The archive is the app's to write: in the text, every string it holds is escaped
/// (``TerminalText``; strings are quoted as JSON first, DEL and C1 controls escaped after), so no
/// identifier, class name or value can drive the terminal or forge a line. The JSON is JSON.
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
        let inert = TerminalText.escaped
        var out = "archive: format \(header.formatVersion), build \(inert(header.buildVersion)), "
        out += "generation \(header.generation), \(decoded.byteCount) bytes, written at µs \(header.timestamp)\n"
        if let warning = decoded.warning { out += "warning: \(inert(warning))\n" }
        if shorten {
            out += "warning: the paths hold over \(pathBudget(for: decoded.byteCount)) identifiers in all; "
                + "those deeper than \(shortenedDepth) are shown by their last \(keptIdentifiers)\n"
        }
        if !decoded.archive.applicationState.isEmpty {
            out += "application state:\n"
            for (key, value) in decoded.archive.applicationState.sorted(by: { $0.key < $1.key }) {
                out += "    \(inert(key)) = \(describe(value))\n"
            }
        }
        for controller in decoded.archive.controllers {
            out += inert(path(controller, shorten: shorten)) + "\n"
            out += "    class \(inert(controller.className))"
            out += controller.restorationClassName.map { ", restoration class \(inert($0))" } ?? ", no restoration class"
            out += "\n"
            for relation in controller.relationships {
                out += "    \(relation.kind) → \(inert(relation.identifier))\n"
            }
            for (key, value) in controller.state.sorted(by: { $0.key < $1.key }) {
                out += "    \(inert(key)) = \(describe(value))\n"
            }
            for view in controller.views {
                out += "    view \(inert(view.identifier)) (\(inert(view.className)))\n"
                for (key, value) in view.state.sorted(by: { $0.key < $1.key }) {
                    out += "        \(inert(key)) = \(describe(value))\n"
                }
            }
        }
        return out + scenesText(decoded.archive.sceneSessions)
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
        return out + "], \"sceneSessions\": " + scenesJSON(decoded.archive.sceneSessions) + "}\n"
    }

    static func jsonObject(_ state: [String: StateValue]) -> String {
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

    /// A value for the text: a string quoted as JSON, then inert (JSON leaves DEL and C1 controls raw).
    static func describe(_ value: StateValue) -> String {
        switch value {
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .string(let text): TerminalText.escaped(jsonString(text))
        case .strings(let list): TerminalText.escaped("[" + list.map(jsonString).joined(separator: ", ") + "]")
        case .bytes(let bytes): "\(bytes.count) bytes " + hex(bytes.prefix(16))
        }
    }

    private static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
