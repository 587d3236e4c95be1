#if canImport(Glibc)
import Glibc
#endif

/// One registered app: a file `APP.conf` in an apps.d folder (CONTRACT.md, "Apps").
///
/// ```ini
/// [App]
/// Unit=myapp.service
/// BusName=org.example.MyApp1
/// Permissions=camera photos
/// Profile=ios
/// ```
///
/// `Profile=` chooses the app's permission profile (``PermissionProfile``); `KillPolicy=` is its
/// older name and means the same.
package struct AppRegistration: Sendable, Hashable {
    /// The app id: the file's name without `.conf`.
    package var app: String
    /// The systemd unit permissiond kills when a permission change requires it.
    package var unit: String
    /// Where the app serves `org.relaunch.App1`, if it does.
    package var busName: String?
    /// The permissions the app uses (all, unless the file names some).
    package var permissions: [Permission]
    /// The app's own profile (`Profile=` or `KillPolicy=`), overriding the daemon's.
    package var killPolicy: KillPolicy?
    /// The file it was read from.
    package var file: String

    /// Creates a registration.
    package init(
        app: String, unit: String, busName: String? = nil, permissions: [Permission] = Permission.allCases,
        killPolicy: KillPolicy? = nil, file: String = ""
    ) {
        self.app = app
        self.unit = unit
        self.busName = busName
        self.permissions = permissions
        self.killPolicy = killPolicy
        self.file = file
    }
}

/// Why a registration file was skipped: the file, the line (when one is at fault) and the fault.
package struct AppRegistrationProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    package var file: String
    /// The line at fault, from 1, or nil for the file as a whole.
    package var line: Int?
    /// What is wrong and what is accepted.
    package var fault: String

    /// Creates a problem.
    package init(file: String, line: Int?, fault: String) {
        self.file = file
        self.line = line
        self.fault = fault
    }

    /// `FILE:LINE: FAULT`.
    package var description: String {
        line.map { "\(file):\($0): \(fault)" } ?? "\(file): \(fault)"
    }
}

/// Every registered app, read from the apps.d folders.
package struct AppRegistry: Sendable, Hashable {
    /// The folders, in order of precedence: a file in an earlier folder hides one of the same name
    /// in a later folder, as unit files do (/usr/local/lib before /usr/lib: the local administrator's
    /// build before the distribution's package).
    package static let defaultFolders = [
        "/etc/relaunch/apps.d", "/run/relaunch/apps.d", "/usr/local/lib/relaunch/apps.d", "/usr/lib/relaunch/apps.d",
    ]
    /// The largest registration file read.
    package static let maximumFileSize = 64 * 1024

    /// The registrations, by app id.
    package var apps: [String: AppRegistration]
    /// The files that were skipped, and why.
    package var problems: [AppRegistrationProblem]

    /// A registry of `registrations`.
    package init(_ registrations: [AppRegistration] = [], problems: [AppRegistrationProblem] = []) {
        apps = Dictionary(registrations.map { ($0.app, $0) }, uniquingKeysWith: { first, _ in first })
        self.problems = problems
    }

    /// The registered app ids, sorted.
    package var ids: [String] { apps.keys.sorted() }

    /// The registration of `app`, if it is registered.
    package subscript(app: String) -> AppRegistration? { apps[app] }

    /// Reads every `*.conf` in `folders` (missing folders are fine); bad files are skipped and
    /// listed in ``problems``.
    package static func load(folders: [String] = defaultFolders) -> AppRegistry {
        var seen: Set<String> = []
        var registrations: [AppRegistration] = []
        var problems: [AppRegistrationProblem] = []
        for folder in folders {
            for name in fileNames(in: folder) where !seen.contains(name) {
                seen.insert(name)
                let path = folder + "/" + name
                do throws(AppRegistrationProblem) {
                    let text = try readText(path)
                    registrations.append(try parse(text, app: String(name.dropLast(5)), file: path))
                } catch {
                    problems.append(error)
                }
            }
        }
        return AppRegistry(registrations, problems: problems)
    }

    /// Parses one registration file's text for app id `app`.
    ///
    /// - Throws: the first fault: a bad app id (the file name), a line that is no `Key=Value`, a
    ///   section other than `[App]`, an unknown key or value, or no `Unit=`.
    package static func parse(_ text: String, app: String, file: String) throws(AppRegistrationProblem) -> AppRegistration {
        guard AppIDSyntax.isValid(app) else {
            throw AppRegistrationProblem(
                file: file, line: nil,
                fault: "the file name \(Echo.quoted(app)) is not an app id: \(AppIDSyntax.acceptedForm), then .conf")
        }
        var registration = AppRegistration(app: app, unit: "", file: file)
        var inApp = false
        var unitLine: Int?
        // Any line break ends a line: "\r\n" is one Character, which a split at "\n" never finds.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = raw.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            func fault(_ text: String) -> AppRegistrationProblem {
                AppRegistrationProblem(file: file, line: number, fault: text)
            }
            if line.hasPrefix("[") {
                guard line == "[App]" else { throw fault("unknown section \(Echo.quoted(line)); accepted: [App]") }
                inApp = true
                continue
            }
            guard inApp else { throw fault("settings must follow the [App] section header") }
            guard let equals = line.firstIndex(of: "=") else {
                throw fault("expected Key=Value, found \(Echo.quoted(line))")
            }
            let key = line[..<equals].trimmingSpaces()
            let value = line[line.index(after: equals)...].trimmingSpaces()
            switch key {
            case "Unit":
                guard isUnitName(value) else {
                    throw fault("Unit=\(Echo.quoted(value)) is not a unit name such as myapp.service")
                }
                registration.unit = value
                unitLine = number
            case "BusName":
                guard isBusName(value) else {
                    throw fault("BusName=\(Echo.quoted(value)) is not a well-known bus name such as org.example.MyApp1")
                }
                registration.busName = value
            case "Permissions":
                var permissions: [Permission] = []
                for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                    guard let permission = Permission(rawValue: String(word)) else {
                        throw fault("unknown permission \(Echo.quoted(String(word))); accepted: \(Permission.acceptedNames)")
                    }
                    if !permissions.contains(permission) { permissions.append(permission) }
                }
                guard !permissions.isEmpty else { throw fault("Permissions= names no permission") }
                registration.permissions = permissions
            case "Profile", "KillPolicy":
                // KillPolicy= is the older name of Profile=: the two kill policies are the profiles.
                guard let policy = KillPolicy(rawValue: value) else {
                    let accepted = KillPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fault("unknown \(key)=\(Echo.quoted(value)); accepted: \(accepted)")
                }
                registration.killPolicy = policy
            default:
                throw fault("unknown key \(Echo.quoted(key)); accepted: Unit, BusName, Permissions, Profile, KillPolicy")
            }
        }
        guard unitLine != nil else {
            throw AppRegistrationProblem(file: file, line: nil, fault: "no Unit= (the systemd unit that runs the app)")
        }
        return registration
    }

    /// `NAME.service`, `NAME.scope`, …: unit-name characters and a known type suffix.
    static func isUnitName(_ text: String) -> Bool {
        let types = [".service", ".scope"]
        guard text.utf8.count <= 255, let type = types.first(where: text.hasSuffix) else { return false }
        let name = text.dropLast(type.count)
        return !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil))
                || ":-_.\\@".unicodeScalars.contains(scalar)
        }
    }

    /// A well-known D-Bus name: at least two dot-separated elements of `[A-Za-z0-9_-]`, not
    /// starting with a digit.
    static func isBusName(_ text: String) -> Bool {
        let elements = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 255, elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return element.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
            }
        }
    }

    /// The names in `folder` that end in `.conf`, sorted; none when it does not exist or cannot be read.
    static func fileNames(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".conf") { names.append(name) }
        }
        return names.sorted()
    }

    /// The fault of a file that is not UTF-8 text.
    static let notUTF8 = "not UTF-8 text"

    /// A regular file's text, at most ``maximumFileSize`` bytes.
    static func readText(_ path: String) throws(AppRegistrationProblem) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw AppRegistrationProblem(file: path, line: nil, fault: "cannot read it (errno \(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw AppRegistrationProblem(file: path, line: nil, fault: "not a regular file")
        }
        guard info.st_size <= maximumFileSize else {
            throw AppRegistrationProblem(file: path, line: nil, fault: "larger than \(maximumFileSize / 1024) KiB")
        }
        guard let file = fopen(path, "r") else {
            throw AppRegistrationProblem(file: path, line: nil, fault: "cannot read it (errno \(errno))")
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        let count = fread(&bytes, 1, bytes.count, file)
        guard count <= maximumFileSize else {
            throw AppRegistrationProblem(file: path, line: nil, fault: "larger than \(maximumFileSize / 1024) KiB")
        }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        guard text.utf8.count == count else {
            throw AppRegistrationProblem(file: path, line: nil, fault: notUTF8)
        }
        return text
    }
}

/// The syntax of an app id (`[a-z0-9][a-z0-9._-]{0,63}`), shared by registrations and the daemon.
package enum AppIDSyntax {
    /// The accepted form, in words and as a pattern, for error messages.
    package static let acceptedForm =
        "1 to 64 characters from a-z, 0-9, '.', '_' and '-', starting with a letter or digit "
        + "([a-z0-9][a-z0-9._-]{0,63})"

    /// Whether `id` is a syntactically valid app id.
    package static func isValid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard let first = bytes.first, bytes.count <= 64, isLowerAlphanumeric(first) else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            isLowerAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
            let end = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        var out = ""
        out.unicodeScalars.append(contentsOf: scalars[start...end])
        return out
    }
}
