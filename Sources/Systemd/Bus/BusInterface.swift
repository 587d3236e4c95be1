/// A D-Bus interface as a program describes it: its name, its methods and signals with argument
/// names and signatures, and the error names its methods answer with. Exporting it builds the
/// sd-bus vtable from this description at run time, so `busctl introspect` shows it as written.
///
/// The Systemd target knows no particular interface; each program's interfaces are described once,
/// where its clients and servers both find them.
public struct BusInterface: Sendable, Hashable {
    /// One argument: its name (shown by introspection) and D-Bus signature.
    public struct Argument: Sendable, Hashable {
        /// The name, e.g. `app`.
        public var name: String
        /// The signature of one complete type, e.g. `s` or `a{ss}`.
        public var signature: String

        /// An argument `name` of type `signature`.
        public init(_ name: String, _ signature: String) {
            self.name = name
            self.signature = signature
        }
    }

    /// A method: what it takes and what it answers.
    public struct Method: Sendable, Hashable {
        /// The member name, e.g. `Get`.
        public var name: String
        /// Its input arguments, in order.
        public var inputs: [Argument]
        /// Its output arguments, in order.
        public var outputs: [Argument]

        /// A method `name(inputs) -> outputs`.
        public init(_ name: String, _ inputs: [Argument] = [], returns outputs: [Argument] = []) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
        }

        /// The input signature, e.g. `ss`.
        public var inputSignature: String { inputs.map(\.signature).joined() }
        /// The output signature (`""` for none).
        public var outputSignature: String { outputs.map(\.signature).joined() }
    }

    /// A signal and its arguments.
    public struct Signal: Sendable, Hashable {
        /// The member name, e.g. `Changed`.
        public var name: String
        /// Its arguments, in order.
        public var arguments: [Argument]

        /// A signal `name(arguments)`.
        public init(_ name: String, _ arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }

        /// The signature, e.g. `ssssb`.
        public var signature: String { arguments.map(\.signature).joined() }
    }

    /// The interface name, e.g. `org.relaunch.Permissions1`.
    public var name: String
    /// Its methods.
    public var methods: [Method]
    /// Its signals.
    public var signals: [Signal]
    /// The D-Bus error names its methods answer with, beyond the standard ones (documentation).
    public var errors: [String]

    /// Describes an interface.
    public init(name: String, methods: [Method], signals: [Signal] = [], errors: [String] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.errors = errors
    }

    /// The conventional object path, e.g. `/org/relaunch/Permissions1`.
    public var objectPath: String { "/" + name.split(separator: ".").joined(separator: "/") }

    /// The method named `member`, if the interface has it.
    public func method(_ member: String) -> Method? { methods.first { $0.name == member } }

    /// The input signature of `member` (`""` for none), or nil if the interface has no such method.
    public func inputSignature(of member: String) -> String? { method(member)?.inputSignature }

    /// The output signature of `member` (`""` for none), or nil if the interface has no such method.
    public func outputSignature(of member: String) -> String? { method(member)?.outputSignature }
}
