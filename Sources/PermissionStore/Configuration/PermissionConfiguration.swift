import Foundation
public import RelaunchContract

/// permissiond's settings: the kill policy and, for each app it knows, the systemd unit to kill.
///
/// Read from `/etc/relaunch/permissiond.conf`; when that file is absent the built-in defaults
/// apply: policy `ios` and app `checkin-demo` run by `checkin-demo.service`. A file that exists
/// replaces the defaults entirely: list every app whose unit should be killed.
///
/// The format, as ``example`` prints it:
///
/// ```
/// # /etc/relaunch/permissiond.conf: settings of permissiond, the permission daemon.
/// #
/// # Lines are `key = value`, `[app NAME]` section headers, blank, or comments starting with #.
/// # Keys before the first section are global; keys after `[app NAME]` belong to app NAME.
///
/// # Which permission changes kill a running app (default: ios).
/// #   ios      any change of any permission but location kills the app
/// #   android  only a revoke (a change away from allowed) kills the app
/// kill-policy = ios
///
/// # One section per app: NAME is its app id ([a-z0-9][a-z0-9._-]{0,63}), and `unit` is the
/// # systemd service permissiond kills when a permission change requires it. Apps without a
/// # section can still hold permissions; they are just never killed.
/// [app checkin-demo]
/// unit = checkin-demo.service
/// ```
public struct PermissionConfiguration: Sendable, Hashable {
    /// Where permissiond reads its configuration unless told otherwise.
    public static let defaultPath = "/etc/relaunch/permissiond.conf"

    /// Which permission changes kill a running app.
    public var killPolicy: KillPolicy
    /// Each configured app id and the systemd unit that runs it.
    public var units: [String: String]

    /// Creates a configuration.
    public init(killPolicy: KillPolicy = .ios, units: [String: String]) {
        self.killPolicy = killPolicy
        self.units = units
    }

    /// The built-in configuration used when no file exists: policy `ios`, app `checkin-demo`.
    public static let builtIn = PermissionConfiguration(
        killPolicy: .ios, units: [CheckInDemoApp.appID: CheckInDemoApp.unit])

    /// The configured app ids, sorted.
    public var apps: [String] { units.keys.sorted() }

    /// The unit that runs `app`, or `nil` if the app is not configured.
    public func unit(for app: String) -> String? { units[app] }

    /// A commented example file documenting every setting, for `--print-example-config`.
    public static let example = """
        # /etc/relaunch/permissiond.conf: settings of permissiond, the permission daemon.
        #
        # Lines are `key = value`, `[app NAME]` section headers, blank, or comments starting with #.
        # Keys before the first section are global; keys after `[app NAME]` belong to app NAME.

        # Which permission changes kill a running app (default: ios).
        #   ios      any change of any permission but location kills the app
        #   android  only a revoke (a change away from allowed) kills the app
        kill-policy = ios

        # One section per app: NAME is its app id ([a-z0-9][a-z0-9._-]{0,63}), and `unit` is the
        # systemd service permissiond kills when a permission change requires it. Apps without a
        # section can still hold permissions; they are just never killed.
        [app checkin-demo]
        unit = checkin-demo.service

        """

    /// Reads the file at `path`, or returns ``builtIn`` when no file exists there.
    ///
    /// - Throws: `PermissionConfigurationError` when the file exists but cannot be read, is not
    ///   UTF-8, or does not parse; the error names the file and line.
    public static func load(path: String = defaultPath) throws(PermissionConfigurationError) -> Self {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return builtIn
        } catch {
            let reason = (error as? CocoaError)?.underlying.map { "\($0)" } ?? "\(error)"
            throw PermissionConfigurationError(
                code: .unreadable, file: path, line: nil,
                message: "cannot read the file (\(reason)); make it readable by permissiond or remove it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PermissionConfigurationError(
                code: .unreadable, file: path, line: nil, message: "the file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }
}

extension CocoaError {
    /// The POSIX error beneath a file error, when Foundation kept it.
    fileprivate var underlying: (any Error)? { userInfo[NSUnderlyingErrorKey] as? any Error }
}
