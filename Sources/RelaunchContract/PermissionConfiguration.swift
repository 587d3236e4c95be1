#if canImport(Glibc)
import Glibc
#endif

/// permissiond's settings: the kill policy, and the apps it serves with the systemd unit to kill.
///
/// The policy comes from `/etc/relaunch/permissiond.conf` (absent: `ios`). The apps are those
/// registered in the apps.d folders (``AppRegistry``), plus any `[app NAME]` sections of the file
/// (a registration of the same app wins). No app is built in.
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
/// #   ios      a change of camera, microphone, photos, contacts or calendars kills the app
/// #   android  only a revoke (a change that takes access away) kills the app
/// kill-policy = ios
///
/// # Apps are registered by files APP.conf in /etc/relaunch/apps.d, /run/relaunch/apps.d or
/// # /usr/local/lib/relaunch/apps.d (see relaunch-apps.d). A section here registers one too:
/// # NAME is its app id ([a-z0-9][a-z0-9._-]{0,63}), `unit` the systemd service to kill.
/// # [app my-app]
/// # unit = my-app.service
/// ```
package struct PermissionConfiguration: Sendable, Hashable {
    /// Where permissiond reads its configuration unless told otherwise.
    package static let defaultPath = "/etc/relaunch/permissiond.conf"

    /// Which permission changes kill a running app.
    package var killPolicy: KillPolicy
    /// Apps of the file's `[app NAME]` sections and the unit that runs each.
    package var units: [String: String]
    /// The apps registered in apps.d.
    package var registry: AppRegistry

    /// Creates a configuration.
    package init(killPolicy: KillPolicy = .ios, units: [String: String] = [:], registry: AppRegistry = AppRegistry()) {
        self.killPolicy = killPolicy
        self.units = units
        self.registry = registry
    }

    /// The configuration when no file exists: policy `ios`, no app but the registered ones.
    package static let builtIn = PermissionConfiguration(killPolicy: .ios)

    /// The registered app ids, sorted.
    package var apps: [String] { Set(units.keys).union(registry.ids).sorted() }

    /// Whether `app` is registered.
    package func isRegistered(_ app: String) -> Bool { registry[app] != nil || units[app] != nil }

    /// The unit that runs `app`, or `nil` if the app is not registered.
    package func unit(for app: String) -> String? { registry[app]?.unit ?? units[app] }

    /// The kill policy for `app`: its registration's, else the daemon's.
    package func killPolicy(for app: String) -> KillPolicy { registry[app]?.killPolicy ?? killPolicy }

    /// The permissions `app` uses: its registration's list, else every permission.
    package func permissions(for app: String) -> [Permission] { registry[app]?.permissions ?? Permission.allCases }

    /// A commented example file documenting every setting, for `--print-example-config`.
    package static let example = """
        # /etc/relaunch/permissiond.conf: settings of permissiond, the permission daemon.
        #
        # Lines are `key = value`, `[app NAME]` section headers, blank, or comments starting with #.
        # Keys before the first section are global; keys after `[app NAME]` belong to app NAME.

        # Which permission changes kill a running app (default: ios).
        #   ios      a change of camera, microphone, photos, contacts or calendars kills the app
        #   android  only a revoke (a change that takes access away) kills the app
        kill-policy = ios

        # Apps are registered by files APP.conf in /etc/relaunch/apps.d, /run/relaunch/apps.d or
        # /usr/local/lib/relaunch/apps.d (see relaunch-apps.d). A section here registers one too:
        # NAME is its app id ([a-z0-9][a-z0-9._-]{0,63}), `unit` the systemd service to kill.
        # [app my-app]
        # unit = my-app.service

        """

    /// Reads the file at `path`, or returns ``builtIn`` when no file exists there.
    ///
    /// - Throws: `PermissionConfigurationError` when the file exists but cannot be read, is not
    ///   UTF-8, or does not parse; the error names the file and line.
    package static func load(path: String = defaultPath) throws(PermissionConfigurationError) -> Self {
        var info = stat()
        if stat(path, &info) != 0 && errno == ENOENT { return builtIn }
        let text: String
        do throws(AppRegistrationProblem) {
            text = try AppRegistry.readText(path)
        } catch {
            let message = error.fault == AppRegistry.notUTF8 ? "the file is not UTF-8 text"
                : "cannot read the file (\(error.fault)); make it readable by permissiond or remove it"
            throw PermissionConfigurationError(code: .unreadable, file: path, line: nil, message: message)
        }
        return try parse(text, file: path)
    }

    /// The app whose unit is `unit`, as permissiond sees them (a registration wins over a section
    /// of the same app), or nil: whether permissiond may kill `unit`.
    package func app(runningUnit unit: String) -> String? {
        apps.first { self.unit(for: $0) == unit }
    }
}
