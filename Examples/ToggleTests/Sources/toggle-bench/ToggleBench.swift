// toggle-bench [STEPS]: times one permission-toggle step of checkin-demo from Swift code, STEPS times
// (default 50): set the camera (the other state each step) → killed → relaunched → restored → state
// read. Prints each step's time to stderr and, on stdout, one line: "swift steps=N median=… p95=… ms".
import RelaunchTesting

#if canImport(Glibc)
import Glibc
#endif

@main
struct ToggleBench {
    static func main() async {
        let steps = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 50
        guard steps > 0 else {
            printError("toggle-bench: STEPS must be a positive whole number\n")
            exit(2)
        }
        do {
            let app = try await TestedApp.attach("checkin-demo")
            try await app.tap("tab:check-in")
            try await app.tap("check-in")
            try await app.type("Bench", into: "venue")
            try await app.background()
            var state = try await app.permission(.camera).store == .allowed ? PermissionState.denied : .allowed
            var times: [Duration] = []
            var exitToReady: [Duration] = []
            let clock = ContinuousClock()
            for step in 1...steps {
                let start = clock.now
                let change = try await app.setPermission(.camera, to: state)
                guard let back = change.relaunch, back.outcome == .restored else {
                    printError("toggle-bench: step \(step): checkin-demo did not come back restored (\(change))\n")
                    exit(1)
                }
                _ = try await app.state()
                let took = clock.now - start
                times.append(took)
                if let systemd = back.exitToReady { exitToReady.append(systemd) }
                printError("step \(step): \(milliseconds(took)) ms\n")
                try await app.background()
                state = state == .allowed ? .denied : .allowed
            }
            // Nearest rank, as every Swift figure of Relaunch (its `percentile`, re-exported by RelaunchTesting).
            func rank(_ p: Double, of values: [Duration]) -> String { percentile(p, of: values).map(milliseconds) ?? "-" }
            // The relaunch itself, as systemd timed it (the killed process's exit to READY=1), for
            // telling the test's own cost from the machine's.
            let systemd = rank(0.5, of: exitToReady)
            print("swift steps=\(steps) median=\(rank(0.5, of: times)) p95=\(rank(0.95, of: times)) ms exit-to-ready-median=\(systemd)")
        } catch {
            printError("toggle-bench: \(error)\n")
            exit(1)
        }
    }

    /// Writes `text` to standard error.
    static func printError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let tenths = Int((Double(duration / .microseconds(1)) / 100).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
