import RelaunchTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Writes a real journal into a temp directory by running systemd-journald privately:
/// `unshare --mount` with tmpfs over /run and /var/log, the temp dir bound to /run/log/journal
/// (journald's runtime journal: nothing asks it to flush to /var). The host's /run and /var/log
/// are not touched.
enum JournalFixture {
    static let journald = "/lib/systemd/systemd-journald"

    /// Why the fixture cannot run here, or nil if it can.
    static var unavailableReason: String? {
        if geteuid() != 0 { return "needs root to unshare a mount namespace for a private journald" }
        if access(journald, X_OK) != 0 { return "\(journald) is not installed" }
        if access("/usr/bin/unshare", X_OK) != 0 { return "unshare is not installed" }
        if access("/usr/bin/logger", X_OK) != 0 { return "logger (util-linux) is not installed" }
        return nil
    }

    static var isAvailable: Bool {
        if let reason = unavailableReason {
            print("JournalReader tests skipped: \(reason)")
            return false
        }
        return true
    }

    /// Logs two structured entries (identifier `relaunch-test`) and one stdout line
    /// (identifier `relaunch-other`) and returns the directory holding the journal files.
    static func write(into directory: TemporaryDirectory) throws -> String {
        let journalDirectory = directory.path + "/journal"
        mkdir(journalDirectory, 0o755)
        let script = directory.path + "/write-journal.sh"
        try writeFile(script, """
            set -eu
            D="$1"
            mount -t tmpfs tmpfs /run
            mount -t tmpfs tmpfs /var/log
            mkdir -p /run/systemd/journal /run/log/journal
            mount --bind "$D/journal" /run/log/journal
            \(journald) >"$D/journald.log" 2>&1 &
            J=$!
            i=0
            while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
            printf 'MESSAGE=first entry\\nMESSAGE_ID=0c3ece682843457296ab0da296a09171\\nSYSLOG_IDENTIFIER=relaunch-test\\nLAUNCH_OUTCOME=restored\\nPRIORITY=5\\n' >"$D/e1"
            logger --journald="$D/e1"
            journalctl --sync
            printf 'MESSAGE=second entry\\nMESSAGE_ID=7cff30b26abb44549eb0f7570b7c2ef9\\nSYSLOG_IDENTIFIER=relaunch-test\\nLIFECYCLE=background\\n' >"$D/e2"
            logger --journald="$D/e2"
            # The stream socket is not ordered with the datagram one: under load journald took the
            # third line first. --sync returns once everything sent before it is written.
            journalctl --sync
            echo "third from stdout" | systemd-cat -t relaunch-other
            sleep 0.2
            journalctl --sync
            kill $J
            wait $J || true
            """)
        let status = run(["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", script, directory.path])
        try #require(status == 0, "the journal writer script failed (\(status)): \(String(describing: try? readFile(directory.path + "/journald.log")))")
        return journalDirectory
    }
}

func writeFile(_ path: String, _ text: String) throws {
    let file = fopen(path, "w")
    try #require(file != nil, "fopen \(path): errno \(errno)")
    fputs(text, file)
    fclose(file)
}
