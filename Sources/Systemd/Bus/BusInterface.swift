/// A D-Bus interface as a program describes it: its name, its methods and signals with argument
/// names and signatures, and the error names its methods answer with. Exporting it builds the
/// sd-bus vtable from this description at run time, so `busctl introspect` shows it as written.
///
/// The Systemd target knows no particular interface; each program's interfaces are described once,
/// where its clients and servers both find them.
package struct BusInterface: Sendable, Hashable {
    /// One argument: its name (shown by introspection) and D-Bus signature.
    package struct Argument: Sendable, Hashable {
        /// The name, e.g. `app`.
        package var name: String
        /// The signature of one complete type, e.g. `s` or `a{ss}`.
        package var signature: String

        /// An argument `name` of type `signature`.
        package init(_ name: String, _ signature: String) {
            self.name = name
            self.signature = signature
        }
    }

    /// A method: what it takes and what it answers.
    package struct Method: Sendable, Hashable {
        /// The member name, e.g. `Get`.
        package var name: String
        /// Its input arguments, in order.
        package var inputs: [Argument]
        /// Its output arguments, in order.
        package var outputs: [Argument]

        /// A method `name(inputs) -> outputs`.
        package init(_ name: String, _ inputs: [Argument] = [], returns outputs: [Argument] = []) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
        }

        /// The input signature, e.g. `ss`.
        package var inputSignature: String { inputs.map(\.signature).joined() }
        /// The output signature (`""` for none).
        package var outputSignature: String { outputs.map(\.signature).joined() }
    }

    /// A signal and its arguments.
    package struct Signal: Sendable, Hashable {
        /// The member name, e.g. `Changed`.
        package var name: String
        /// Its arguments, in order.
        package var arguments: [Argument]

        /// A signal `name(arguments)`.
        package init(_ name: String, _ arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }

        /// The signature, e.g. `ssssb`.
        package var signature: String { arguments.map(\.signature).joined() }
    }

    /// The interface name, e.g. `org.relaunch.Permissions1`.
    package var name: String
    /// Its methods.
    package var methods: [Method]
    /// Its signals.
    package var signals: [Signal]
    /// The D-Bus error names its methods answer with, beyond the standard ones (documentation).
    package var errors: [String]

    /// Describes an interface.
    package init(name: String, methods: [Method], signals: [Signal] = [], errors: [String] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.errors = errors
    }

    /// The conventional object path, e.g. `/org/relaunch/Permissions1`.
    package var objectPath: String { "/" + name.split(separator: ".").joined(separator: "/") }

    /// The method named `member`, if the interface has it.
    package func method(_ member: String) -> Method? { methods.first { $0.name == member } }

    /// The input signature of `member` (`""` for none), or nil if the interface has no such method.
    package func inputSignature(of member: String) -> String? { method(member)?.inputSignature }

    /// The output signature of `member` (`""` for none), or nil if the interface has no such method.
    package func outputSignature(of member: String) -> String? { method(member)?.outputSignature }
}
