/// What restoration can find by name in a new process: restoration classes and storyboard-like scenes.
///
/// Swift cannot look a class up by its name, so every restoration class an archive may name is
/// registered here; scenes stand in for a storyboard (an identifier and a way to instantiate it).
public struct RestorationRegistry {
    private var classes: [String: any ViewControllerRestoration.Type] = [:]
    private var scenes: [String: () -> ViewController] = [:]
    private var storyboards: [String: Storyboard] = [:]
    private var objectClasses: [String: any ObjectRestoration.Type] = [:]

    /// An empty registry.
    public init() {}

    /// The name the archive records for a restoration class (module-qualified).
    public static func name(of restorationClass: any ViewControllerRestoration.Type) -> String {
        TypeNameCache.name(of: restorationClass)
    }

    /// Makes `restorationClass` findable by the name preservation records for it.
    public mutating func register(_ restorationClass: any ViewControllerRestoration.Type) {
        classes[Self.name(of: restorationClass)] = restorationClass
    }

    /// Adds a scene: `make` instantiates the controller whose restoration identifier is `identifier`.
    public mutating func registerScene(_ identifier: String, make: @escaping () -> ViewController) {
        scenes[identifier] = make
    }

    /// Makes the object restoration class `objectClass` findable by the name preservation records for it.
    public mutating func register(_ objectClass: any ObjectRestoration.Type) {
        objectClasses[TypeNameCache.name(of: objectClass)] = objectClass
    }

    /// The object restoration class registered under `name`.
    public func objectRestorationClass(named name: String) -> (any ObjectRestoration.Type)? { objectClasses[name] }

    /// Makes `storyboard` findable by its name, for restoration classes (`StateCoder.storyboard`) and
    /// restoration's last step.
    public mutating func register(_ storyboard: Storyboard) {
        storyboards[storyboard.name] = storyboard
    }

    /// The storyboard registered under `name`.
    public func storyboard(named name: String) -> Storyboard? { storyboards[name] }

    /// The restoration class registered under `name`.
    public func restorationClass(named name: String) -> (any ViewControllerRestoration.Type)? { classes[name] }

    /// A new controller from the scene named `identifier`, with that restoration identifier.
    public func instantiateScene(_ identifier: String) -> ViewController? {
        guard let make = scenes[identifier] else { return nil }
        let controller = make()
        controller.restorationIdentifier = identifier
        return controller
    }
}
