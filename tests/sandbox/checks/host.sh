# After `scripts/sandbox down`: the host is as it was before `up` (CONTRACT.md: never touches the
# host's /tmp, /run, /var/lib, /var/log/journal; down leaves no process and no mount behind).
# The runner itself checks the /tmp marker.

post_host_mounts_unchanged() { assert_same_file mounts; }

# The one change up makes to the machine, and says so: the cgroup v2 hierarchy favours migrations, so a
# relaunch does not wait 10-15 ms for an RCU grace period (scripts/cgroup-favordynmods --help).
check_favordynmods_on() {
    local status=0
    if [[ ${RELAUNCH_SANDBOX_FAVORDYNMODS:-1} == 0 ]]; then
        note "RELAUNCH_SANDBOX_FAVORDYNMODS=0: up left favordynmods alone"
        return 0
    fi
    "$REPO/scripts/cgroup-favordynmods" status >/dev/null || status=$?
    case $status in
        0) ;;
        3) note "this kernel has no favordynmods; relaunches wait for the cgroup migration" ;;
        *) fail "favordynmods is off after up (RELAUNCH_SANDBOX_FAVORDYNMODS=${RELAUNCH_SANDBOX_FAVORDYNMODS:-unset})" ;;
    esac
}
post_host_run_unchanged() { assert_same_file run; assert_same_file run-systemd; }
post_host_journal_dir_unchanged() { assert_same_file var-log-journal; }
post_host_var_lib_unchanged() { assert_same_file var-lib; }
post_host_dev_unchanged() { assert_same_file dev; }
post_host_cgroups_unchanged() { assert_same_file cgroups; }
post_host_etc_unchanged() { assert_same_file etc; assert_same_file etc-lists; assert_same_file hostname; }
post_host_sysctl_unchanged() { assert_same_file sysctl; }

post_no_process_left() {
    [[ -n "$SANDBOX_PIDNS" ]] || { note "the sandbox never came up: nothing to look for"; return 0; }
    local link
    for link in /proc/[0-9]*/ns/pid; do
        [[ "$(readlink "$link" 2>/dev/null)" != "$SANDBOX_PIDNS" ]] ||
            fail "process ${link#/proc/} still lives in the sandbox's PID namespace"
    done
    # No new process in a sandbox's cgroup (by cgroup, not by name: other work on the machine runs
    # dbus-daemons and systemds of its own).
    local new
    new=$(comm -13 "$HOST_BEFORE/processes" "$HOST_AFTER/processes")
    [[ -z "$new" ]] || fail "processes appeared in a sandbox's cgroup during the run and are still there: $new"
}

post_status_says_not_running() {
    expect_exit 3 "$SANDBOX" status
}

post_journal_exported() {
    [[ -n "$SANDBOX_PIDNS" ]] || { note "the sandbox never came up: no journal"; return 0; }
    local out
    # PID 1's own entries (matched through the files' index: the journal-flood checks leave tens of
    # MB of a stranger's lines in the export, which reading every entry would print).
    out=$(journalctl --directory "$JOURNAL_OUT" --no-pager -o cat _PID=1 2>&1)
    assert_contains "$out" "Started checkin-demo.service" "journal exported by down"
    assert_contains "$out" "Started permissiond.service" "journal exported by down"
    # permissiond's own entries, from its journal namespace's files.
    out=$(journalctl --directory "$JOURNAL_OUT" --no-pager -o cat _SYSTEMD_UNIT=permissiond.service 2>&1)
    assert_contains "$out" "serving org.relaunch.Permissions1" "permissiond's entries in the journal exported by down"
}

# After `down`: the exported journal reads back the same timeline on the host.
post_relaunchctl_reads_the_exported_journal() {
    [[ -d "$JOURNAL_OUT" ]] || { note "no exported journal"; return 0; }
    expect_exit 0 "$BIN_DIR/relaunchctl" journal --directory "$JOURNAL_OUT"
    # A run of a few checks (--only) may have restored nothing, or another app than checkin-demo; a
    # whole run always restores checkin-demo's modal through the app delegate.
    if [[ -n "${RELAUNCH_SANDBOX_ONLY:-}" ]]; then
        note "this run (--only '$RELAUNCH_SANDBOX_ONLY') may restore no modal: the review was read, only its summary checked"
        assert_contains "$EXPECT_OUTPUT" "summary:"
        return 0
    fi
    assert_contains "$EXPECT_OUTPUT" "via appDelegate"
    assert_contains "$EXPECT_OUTPUT" "summary:"
}
