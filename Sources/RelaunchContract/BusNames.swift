/// The D-Bus names of the permission daemon on the system bus (each app's bus name is in its registration).
package enum BusNames {
    /// The permission daemon's well-known name, object path and interface.
    package enum Permissions {
        package static let service = "org.relaunch.Permissions1"
        package static let object = "/org/relaunch/Permissions1"
        package static let interface = "org.relaunch.Permissions1"
    }
}
