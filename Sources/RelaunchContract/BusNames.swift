/// The D-Bus names of Relaunch's two services on the system bus.
public enum BusNames {
    /// The permission daemon's well-known name, object path and interface.
    public enum Permissions {
        public static let service = "org.relaunch.Permissions1"
        public static let object = "/org/relaunch/Permissions1"
        public static let interface = "org.relaunch.Permissions1"
    }

    /// The demo app's input and inspection service.
    public enum CheckInDemo {
        public static let service = "org.relaunch.CheckInDemo1"
        public static let object = "/org/relaunch/CheckInDemo1"
        public static let interface = "org.relaunch.CheckInDemo1"
    }
}

/// The demo app's identity.
public enum CheckInDemoApp {
    /// The app id permissiond knows it by.
    public static let appID = "checkin-demo"
    /// Its systemd unit.
    public static let unit = "checkin-demo.service"
}
