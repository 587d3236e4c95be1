/// The D-Bus names of the permission daemon on the system bus (each app's bus name is in its registration).
public enum BusNames {
    /// The permission daemon's well-known name, object path and interface.
    public enum Permissions {
        public static let service = "org.relaunch.Permissions1"
        public static let object = "/org/relaunch/Permissions1"
        public static let interface = "org.relaunch.Permissions1"
    }
}
