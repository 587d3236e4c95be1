internal import Logging
internal import RelaunchBus
internal import RelaunchContract
internal import Synchronization
internal import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The standby: a second process of the app, spawned by the running one once it owns its bus name, that has
/// read no permission and no state and waits inside the same unit, under the same hardening, to take
/// over when the running process is SIGKILLed (docs/DESIGN.md, "The standby").
///
/// The two are joined by a ``ProcessLink`` (the standby's end is its descriptor 3). Over it the
/// running process hands the standby each preserved archive's sealed memfd (the copy it also hands to
/// systemd's fd store) and, whenever it ends by any way but SIGKILL, a `leave`: the standby then exits
/// and systemd sees the ending as it always did (a crash fails and restarts, a quit stops). An end of
/// the stream without a `leave` is a SIGKILL: the standby tells systemd it is the main process now
/// (`MAINPID=`), and only then reads the permissions and the state, restores and says READY=1.
enum Standby {
    /// The command-line flag that starts a process as the standby.
    static let argument = "--standby"
    /// `RELAUNCH_STANDBY=1` in the unit (with the settings of systemd/standby/standby.conf) turns it on.
    static let variable = "RELAUNCH_STANDBY"
    /// The tag of a message carrying the newest preserved archive's memfd.
    static let archive = UInt8(ascii: "A")
    /// The tag saying the preserved archive was discarded: the standby drops the one it holds.
    static let dropArchive = UInt8(ascii: "D")
    /// What the standby logs once permissiond knows it (its kills are asked of it from then on).
    static let readyMessage = "standby ready: permissiond asks it to kill first"
    /// The descriptor the standby's end of the link is given.
    static let linkDescriptor: CInt = 3

    /// The environment a standby is spawned with: this process's, without what systemd gave this
    /// process alone (the passed descriptors' `LISTEN_*`, whose `LISTEN_PID` is not the standby's, and
    /// `WATCHDOG_PID`, so that the standby pings once it is the main process), and with the pid it
    /// stands by for.
    static func environment(_ current: [String], standingBy pid: Int32) -> [String] {
        let dropped = (parentsOnly + [standingByVariable, "LD_BIND_NOW"]).map { $0 + "=" }
        // LD_BIND_NOW: the dynamic loader binds every symbol at the standby's start, not at its first
        // call after the take-over.
        return current.filter { entry in !dropped.contains { entry.hasPrefix($0) } }
            + ["\(standingByVariable)=\(pid)", "LD_BIND_NOW=1"]
    }

    /// What systemd gave the running process alone, which no standby (spawned, or made of a template) has.
    static let parentsOnly = ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_PID"]
    /// The variable that names the pid a standby stands by for.
    static let standingByVariable = "RELAUNCH_STANDBY_FOR"

    /// What the standby does with one message from the running process.
    enum Step: Equatable {
        /// Keep `fd` as the newest archive (closing the one held before), and wait on.
        case keepArchive(CInt)
        /// Close the archive held, and wait on.
        case dropArchive
        /// Exit without taking over: the running process ends by a way systemd handles.
        case leave
        /// Take over: the running process was SIGKILLed.
        case takeOver
        /// Ignore an unknown tag (closing what came with it), and wait on.
        case ignore(CInt?)
    }

    /// The decision for `message` (pure).
    static func step(for message: ProcessLink.Message) -> Step {
        switch message {
        case .end: .takeOver
        case .tag(ProcessLink.leave, let fd): fd.map { .ignore($0) } ?? .leave
        case .tag(archive, let fd?): .keepArchive(fd)
        case .tag(dropArchive, let fd): fd.map { .ignore($0) } ?? .dropArchive
        case .tag(_, let fd): .ignore(fd)
        }
    }

    /// How the standby ended its wait: the process it stood by for was SIGKILLed.
    struct TakeOver {
        /// The pid of the killed process.
        var killedPID: Int32
        /// When the standby saw it gone (µs, CLOCK_REALTIME).
        var goneUSec: UInt64
        /// When the standby was started (its `main()`), µs.
        var standbySinceUSec: UInt64
        /// The newest preserved archive the killed process handed over (a sealed memfd), if any.
        var archive: CInt?
        /// When this standby SIGKILLed that process itself on permissiond's `KillMainProcess` (µs);
        /// nil when someone else (systemd) killed it.
        var killSentUSec: UInt64?
    }

    /// Waits on descriptor 3 until the running process ends. Exits the process (status 0) when it ends
    /// by any way but SIGKILL, or when the link cannot be read (systemd then restarts the unit as it
    /// always did). Reads nothing but the link and, on `connection`, permissiond's requests to kill
    /// the running process (``KillRequests``), which it carries out itself.
    static func waitForTakeOver(
        on link: ProcessLink, since start: UInt64, connection: BusConnection?, app: String, logger: Logger
    ) -> TakeOver {
        let killed = HostConfiguration.environment(standingByVariable).flatMap { Int32($0) } ?? getppid()
        // Pinned now, while it is certainly the process this one stands by for (its parent).
        let process = try? ProcessHandle(pid: killed)
        let requests = connection.flatMap { connection in
            process.flatMap { KillRequests.listen(on: connection, for: $0, app: app, logger: logger) }
        }
        var archive: CInt?
        while true {
            let message: ProcessLink.Message
            do {
                requests?.wait(untilReadable: link.fd)
                message = try link.receive()
            } catch {
                logger.warning("the standby cannot read its link to the running process; leaving the relaunch to systemd",
                               metadata: ["ERROR": "\(error)"])
                exit(0)
            }
            switch step(for: message) {
            case .keepArchive(let fd):
                if let archive { close(archive) }
                archive = fd
            case .dropArchive:
                if let archive { close(archive) }
                archive = nil
            case .ignore(let fd):
                if let fd { close(fd) }
            case .leave:
                exit(0)
            case .takeOver:
                // The link ends when the process's descriptors close, a moment before it is a zombie and
                // its children (this one) are handed to systemd: wait for that (its pidfd turns readable),
                // so that systemd takes this process over as its own child. Bounded: a process that
                // closed its descriptors is past its last instruction.
                _ = process?.waitUntilExited(milliseconds: 1000)
                return TakeOver(
                    killedPID: killed, goneUSec: LaunchTimings.now(), standbySinceUSec: start, archive: archive,
                    killSentUSec: requests?.killSentUSec)
            }
        }
    }
}

/// The standby's template: a copy of the app's process forked at the start of its `main()`, while it is
/// one thread that has read nothing, which waits on its link until the process it was forked from
/// asks it to stand by (``go``) and only then becomes its standby. A standby so made costs no exec, no
/// dynamic loading and no runtime start (about 10 ms of a busy machine's time, measured from spawn to
/// the standby's `main()`), so it is ready sooner after each take-over; the spawned standby
/// (``StandbyKeeper/spawn(program:)``) remains for a process that has no template.
///
/// Each process that stands by forks its own template first, while still one thread: it is that
/// process's standby once it has taken over. A template whose process ends before asking exits.
enum StandbyTemplate {
    /// The tag that tells a template to stand by.
    static let go = UInt8(ascii: "G")

    /// What ``fork()`` leaves the process that goes on with.
    struct Forked {
        /// The link to the template this process forked, to be its standby (nil: none could be forked).
        var template: ProcessLink?
        /// In a template told to stand by: its link to the process it stands by for (nil in the process
        /// that was started).
        var standingBy: ProcessLink?
    }

    /// Forks the template of this process's standby, if this process has one thread (at the start of
    /// `main()`). In the template, returns only once it was told to stand by, with the template of its
    /// own standby forked; it exits when the process it was forked from ends before asking.
    static func fork() -> Forked {
        var standingBy: ProcessLink?
        while true {
            guard ProcessLink.threadCount() == 1 else { return Forked(template: nil, standingBy: standingBy) }
            let parent = getpid()
            let forked: ProcessLink.Forked
            do {
                forked = try ProcessLink.fork()
            } catch {
                return Forked(template: nil, standingBy: standingBy)
            }
            switch forked {
            case .parent(let link, _):
                return Forked(template: link, standingBy: standingBy)
            case .child(let link):
                // The link this process stood by on was descriptor 3 too, which the fork replaced with the
                // new link: the old object is never released, so that it never closes the new one's descriptor.
                if let previous = standingBy { _ = Unmanaged.passRetained(previous) }
                waitToStandBy(on: link)
                prepareEnvironment(standingBy: parent)
                standingBy = link
            }
        }
    }

    /// Returns when the process at the other end asks this template to stand by; exits (status 0, no
    /// exit handlers: they are the parent's) when it ends or leaves first.
    private static func waitToStandBy(on link: ProcessLink) {
        while true {
            switch try? link.receive() {
            case .tag(go, nil)?:
                return
            case .tag(let tag, let fd)? where tag != ProcessLink.leave:
                if let fd { close(fd) }
            default:
                _exit(0)
            }
        }
    }

    /// The environment a standby has (as ``Standby/environment(_:standingBy:)`` gives a spawned one):
    /// without what systemd gave the parent alone, and with the pid it stands by for.
    private static func prepareEnvironment(standingBy pid: Int32) {
        for name in Standby.parentsOnly { unsetenv(name) }
        setenv(Standby.standingByVariable, "\(pid)", 1)
    }
}

/// permissiond's requests to kill the process a standby stands by for (`KillMainProcess`), heard
/// while it waits: the standby SIGKILLs that process itself, sooner than systemd's KillUnit, which
/// asks polkit first. permissiond still has systemd kill it when it is not gone within a bound.
///
/// A request is believed only from the current owner of `org.relaunch.Permissions1` (the bus
/// daemon fills in the sender; anyone may send a signal), and only for the pid this standby pinned:
/// a stranger's signal kills nothing.
final class KillRequests: Sendable {
    private let connection: BusConnection
    private let process: ProcessHandle
    private let trust = PermissionFollower.Trust()
    private let logger: Logger
    private let sent = Atomic<UInt64>(0)
    private let subscriptions = Mutex<[BusSubscription]>([])

    /// When this standby sent the SIGKILL (µs, CLOCK_REALTIME), or nil.
    var killSentUSec: UInt64? {
        let value = sent.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    private init(connection: BusConnection, process: ProcessHandle, logger: Logger) {
        self.connection = connection
        self.process = process
        self.logger = logger
    }

    /// Subscribes on `connection`, learns who owns permissiond's name and tells permissiond that this
    /// standby of `app` is there (`Lifecycle(app, "standby")`, which reads nothing: permissiond then
    /// knows this caller when it takes over and asks for the permissions); nil (and systemd alone
    /// kills) when the bus cannot be used.
    static func listen(on connection: BusConnection, for process: ProcessHandle, app: String, logger: Logger) -> KillRequests? {
        let requests = KillRequests(connection: connection, process: process, logger: logger)
        do throws(BusError) {
            // No sender= in the rule: sd-bus would compare the well-known name with the unique name. arg0:
            // this unit's requests alone (the other apps' standbys are not woken by them).
            // Neither rule is waited for: the calls below reach the bus daemon after them, so once
            // permissiond has answered Lifecycle (and may ask this standby to kill) both are in place.
            let kill = try connection.subscribeWithoutWaiting(BusMatchRule(
                path: BusNames.Permissions.object, interface: BusNames.Permissions.interface,
                member: Permissions1Method.killMainProcess.name, arg0: currentSystemdUnit())
            ) { signal in requests.heard(signal) }
            let owner = try connection.subscribeWithoutWaiting(PermissionFollower.Trust.ownerChanges) { signal in
                _ = requests.trust.takeOwnerChange(signal)
            }
            requests.subscriptions.withLock { $0 = [kill, owner] }
            if let name = try? connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(BusNames.Permissions.service)], timeout: .seconds(2)
            ).string(at: 0) {
                requests.trust.setOwnerUnlessKnown(name)
            }
            do throws(BusError) {
                try PermissionsClient(bus: connection, timeout: .seconds(2)).lifecycle(app: app, AppState.Lifecycle.standbyReport)
                logger.info("\(Standby.readyMessage)", metadata: ["STANDBY_FOR_PID": "\(process.pid)"])
            } catch {
                // permissiond is down or answered late: it does not know this standby, so systemd kills.
                logger.notice("the standby could not tell permissiond it is there; systemd kills", metadata: ["ERROR": "\(error)"])
            }
        } catch {
            logger.notice("the standby does not hear permissiond's kill requests; systemd kills", metadata: ["ERROR": "\(error)"])
            return nil
        }
        return requests
    }

    /// Serves the bus until `descriptor` (the link) is readable. On a bus failure it stops listening
    /// and returns: the link alone is waited for then.
    func wait(untilReadable descriptor: CInt) {
        guard killSentUSec == nil else { return }
        while true {
            let busDescriptor: CInt
            do {
                try connection.processPending(waitingUpTo: .zero)
                busDescriptor = try connection.descriptor
            } catch {
                return
            }
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: busDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno != EINTR { return }
            if fds[0].revents != 0 || fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return }
        }
    }

    /// A `KillMainProcess`: SIGKILLs the pinned process when the request is permissiond's and names it.
    private func heard(_ signal: BusSignal) {
        guard trust.believes(signal, logger: logger), Self.names(process.pid, signal.arguments), killSentUSec == nil else { return }
        do {
            try process.send(SIGKILL)
            sent.store(LaunchTimings.now(), ordering: .releasing)
        } catch {
            logger.warning("the standby could not kill process \(process.pid); systemd kills it", metadata: ["ERROR": "\(error)"])
        }
    }

    /// Whether a request's arguments (unit, pid) name `pid` (pure).
    static func names(_ pid: Int32, _ arguments: BusValues) -> Bool {
        guard let requested = try? arguments.uint32(at: 1) else { return false }
        return Int64(requested) == Int64(pid)
    }
}

/// The running process's side: spawns the standby once it owns its bus name (after READY=1) and keeps
/// it holding what systemd's fd store holds.
final class StandbyKeeper: Sendable {
    private struct Held: ~Copyable {
        var link: ProcessLink?
        /// The newest archive memfd this process knows systemd's fd store holds (passed at launch, or
        /// stored since); handed to a standby spawned later.
        var archive: CInt?
    }

    private let held = Mutex(Held())
    private let logger: Logger
    /// The template this process forked (``StandbyTemplate``), told to stand by in ``spawn(program:)``.
    private let template: Mutex<ProcessLink?>

    init(logger: Logger, template: ProcessLink? = nil) {
        self.logger = logger
        self.template = Mutex(template)
    }

    /// Starts the standby: tells the template to stand by, or, with none, spawns this executable with
    /// ``Standby/argument``; from then on every end of this process but SIGKILL sends it `leave`.
    func spawn(program: String) {
        if let template = template.withLock({ $0.take() }) {
            do {
                try template.send(StandbyTemplate.go)
                try template.announceEveryEndButSIGKILL()
                let archive = held.withLock { held in
                    held.link = template
                    return held.archive
                }
                if let archive { try template.send(Standby.archive, fd: archive) }
                logger.info("standby started (from its template)")
                return
            } catch {
                logger.notice("the standby's template is gone; spawning a standby", metadata: ["ERROR": "\(error)"])
            }
        }
        let path: String
        do {
            path = try Self.executablePath()
        } catch {
            logger.warning("no standby: the executable's path cannot be read", metadata: ["ERROR": "\(error)"])
            return
        }
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        do {
            let (link, pid) = try ProcessLink.spawn(
                path, arguments: [program, Standby.argument], environment: Standby.environment(entries, standingBy: getpid()))
            try link.announceEveryEndButSIGKILL()
            let archive = held.withLock { held in
                held.link = link
                return held.archive
            }
            if let archive { try link.send(Standby.archive, fd: archive) }
            logger.info("standby started", metadata: ["STANDBY_PID": "\(pid)"])
        } catch {
            logger.warning("no standby: it could not be started; a kill is relaunched by systemd", metadata: ["ERROR": "\(error)"])
        }
    }

    /// Keeps `fd` (a duplicate of it) as the newest preserved archive and hands it to the standby.
    func preserved(_ fd: CInt) {
        let copy = dup(fd)
        guard copy >= 0 else { return }
        _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
        let link = held.withLock { held in
            if let old = held.archive { close(old) }
            held.archive = copy
            return held.link
        }
        send(Standby.archive, fd: copy, on: link)
    }

    /// Forgets the preserved archive (the saved state was discarded) and tells the standby.
    func discarded() {
        let link = held.withLock { held in
            if let old = held.archive { close(old) }
            held.archive = nil
            return held.link
        }
        send(Standby.dropArchive, fd: nil, on: link)
    }

    /// Sends on the link; once it fails (the standby is gone: SIGTERM of a stop reaches it first, or it
    /// died) the link is dropped and a kill is relaunched by systemd, as without a standby.
    private func send(_ tag: UInt8, fd: CInt?, on link: ProcessLink?) {
        guard let link else { return }
        do {
            try link.send(tag, fd: fd)
        } catch {
            held.withLock { held in if held.link === link { held.link = nil } }
            logger.notice("the standby is gone; a kill is relaunched by systemd", metadata: ["ERROR": "\(error)"])
        }
    }

    /// This process's executable, as a path (so that the standby's `_COMM` is the program's name).
    private static func executablePath() throws(HostError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { throw HostError(.usage, "readlink /proc/self/exe: \(String(cString: strerror(errno)))") }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
