package import RelaunchContract
import Systemd

/// What systemd says about an app's unit at one moment (`org.freedesktop.systemd1.Unit`).
package struct UnitSnapshot: Sendable, Equatable {
    package var activeState = ""
    package var subState = ""
    /// `$INVOCATION_ID` of the current (or last) instance, hex; empty when none.
    package var invocationID = ""
    /// The service's main process (`MainPID`), 0 when none: a standby's take-over changes it and keeps
    /// the invocation (docs/DESIGN.md, "The standby").
    package var mainPID: UInt32 = 0
    /// When the unit last entered `active` (READY=1 for a notify service), µs of CLOCK_MONOTONIC.
    package var activeEnterUSec: UInt64 = 0
    /// When it last left `active` (its main process exited or was stopped), µs of CLOCK_MONOTONIC.
    package var activeExitUSec: UInt64 = 0

    /// `active (running)`, as systemctl says it.
    package var summary: String { subState.isEmpty ? activeState : "\(activeState) (\(subState))" }
}

/// Wakes a wait whenever something it waits for may have changed: the unit's properties (systemd's
/// `PropertiesChanged`, sent once the connection called `Subscribe`) and the owner of the app's bus
/// name (`NameOwnerChanged` from the bus itself). A wait looks at the state, and if it is not there
/// yet, suspends until the next wake or its deadline; wakes that come while it looks are kept, so
/// none is missed.
package final class UnitWatch: Sendable {
    private let bus: SystemBus
    package let unit: String
    private let unitPath: String
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let subscriptions: [BusSubscription]

    /// Starts watching `unit` and the owner of `busName`.
    package init(bus: SystemBus, unit: String, busName: String) async throws(RelaunchTestingError) {
        self.bus = bus
        self.unit = unit
        unitPath = SystemdManager.unitObjectPath(unit)
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let wake = self.wake
        subscriptions = [
            try bus.subscribe(BusMatchRule(
                sender: SystemdManager.destination, path: unitPath, interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged")) { _ in wake.yield() },
            try bus.subscribe(BusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: busName
            )) { _ in wake.yield() },
        ]
        // systemd sends unit signals only to connections that subscribed.
        try await bus.call(
            "systemd", destination: SystemdManager.destination, path: SystemdManager.path,
            interface: SystemdManager.managerInterface, member: "Subscribe")
    }

    deinit {
        for subscription in subscriptions { subscription.cancel() }
        wake.finish()
    }

    /// The unit's properties now.
    package func snapshot() async throws(RelaunchTestingError) -> UnitSnapshot {
        // The six properties asked at once, each answered by systemd from memory: a GetAll of the
        // Unit interface builds all of its ~90 properties, 5 KB, at every look of a wait.
        let unitInterface = "org.freedesktop.systemd1.Unit"
        let asked: [(interface: String, name: String)] = [
            (unitInterface, "ActiveState"), (unitInterface, "SubState"), (unitInterface, "InvocationID"),
            (unitInterface, "ActiveEnterTimestampMonotonic"), (unitInterface, "ActiveExitTimestampMonotonic"),
            ("org.freedesktop.systemd1.Service", "MainPID"),
        ]
        let bus = bus
        let unitPath = unitPath
        let answers = await withTaskGroup(of: (Int, Result<BusValue, RelaunchTestingError>).self) { group in
            for (index, property) in asked.enumerated() {
                group.addTask {
                    do throws(RelaunchTestingError) {
                        let values = try await bus.call(
                            "systemd", destination: SystemdManager.destination, path: unitPath,
                            interface: "org.freedesktop.DBus.Properties", member: "Get",
                            [.string(property.interface), .string(property.name)])
                        do throws(BusError) {
                            return (index, .success(try values.variant(at: 0)))
                        } catch {
                            return (index, .failure(RelaunchTestingError(
                                .unexpectedReply, "systemd's \(property.name) of \(self.unit) could not be read: \(error.message)")))
                        }
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var answers = [Result<BusValue, RelaunchTestingError>?](repeating: nil, count: asked.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers
        }
        var values: [BusValue] = []
        for answer in answers {
            guard let answer else { throw RelaunchTestingError(.unexpectedReply, "systemd's properties of \(unit) could not be read") }
            values.append(try answer.get())
        }
        var snapshot = UnitSnapshot()
        snapshot.activeState = values[0].stringValue ?? ""
        snapshot.subState = values[1].stringValue ?? ""
        snapshot.invocationID = SystemdManager.hex(values[2].bytesValue ?? [])
        snapshot.activeEnterUSec = values[3].uint64Value ?? 0
        snapshot.activeExitUSec = values[4].uint64Value ?? 0
        snapshot.mainPID = values[5].uint64Value.map { UInt32(truncatingIfNeeded: $0) } ?? 0
        return snapshot
    }

    /// Looks with `look` now and after every wake until it is done, at most `timeout` long.
    /// - Throws: ``RelaunchTestingError/Code/timedOut`` naming `awaited` and what the last look saw;
    ///   whatever `look` throws.
    package func wait<Value: Sendable>(
        for awaited: String, timeout: Duration,
        _ look: () async throws(RelaunchTestingError) -> Probe<Value>
    ) async throws(RelaunchTestingError) -> Value {
        let deadline = ContinuousClock.now + timeout
        // The bound: one wake at the deadline (the wait's limit, not a pause standing in for an event).
        let wake = self.wake
        let alarm = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            wake.yield()
        }
        defer { alarm.cancel() }
        var iterator = wakes.makeAsyncIterator()
        var lastSeen = "nothing yet"
        while true {
            switch try await look() {
            case .done(let value):
                return value
            case .notYet(let seen):
                lastSeen = seen
            }
            if ContinuousClock.now >= deadline { break }
            guard await iterator.next() != nil else { break }
        }
        throw RelaunchTestingError(.timedOut, "waited \(timeout) for \(awaited); last seen: \(lastSeen)")
    }
}
