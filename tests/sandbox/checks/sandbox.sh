# The sandbox itself, seen from outside: scripts/sandbox's contract (up, status, exec, paths, a second
# sandbox beside this one). What it runs, seen from inside (the units, journald, the bus, the catalog,
# exposure), is Tests/SandboxCheckTests/SandboxSystemChecks.swift. Works with the C stand-ins too.

check_up_is_idempotent() {
    local before after
    before=$(cut -d' ' -f1 "${SANDBOX_STATE:-$REPO/.build-sandbox}/pid" 2>/dev/null || "$SANDBOX" status | sed -n 's/.*pid \([0-9]*\).*/\1/p')
    expect_exit 0 "$SANDBOX" up ${BIN_DIR:+--bin-dir "$BIN_DIR"}
    assert_contains "$EXPECT_OUTPUT" "already running" "second up"
    after=$("$SANDBOX" status | sed -n 's/^sandbox: running, pid \([0-9]*\).*/\1/p')
    assert_eq "$before" "$after" "sandbox pid after a second up"
}

check_status_lists_units() {
    expect_exit 0 "$SANDBOX" status
    assert_contains "$EXPECT_OUTPUT" "checkin-demo.service"
    assert_contains "$EXPECT_OUTPUT" "permissiond.service"
}

check_exec_exit_status_and_stdio() {
    expect_exit 7 in_sandbox sh -c 'exit 7'
    expect_exit 0 in_sandbox true
    assert_eq "through" "$(echo through | in_sandbox cat)" "stdin passed to exec"
    expect_exit 3 in_sandbox sh -c 'echo to-stderr >&2; exit 3'
    assert_contains "$EXPECT_OUTPUT" "to-stderr" "stderr of exec"
}

check_exec_path_has_the_binaries_first() {
    local name
    for name in checkin-demo permissiond relaunchctl; do
        assert_eq "/usr/local/bin/$name" "$(in_sandbox sh -c "command -v $name")" "$name on PATH"
    done
    # The units keep the real-host path; inside it is the bin dir the sandbox was started with.
    assert_eq "$(sha256sum <"$BIN_DIR/checkin-demo")" "$(in_sandbox sh -c 'sha256sum </usr/local/bin/checkin-demo')" \
        "checkin-demo inside is the one from BIN_DIR"
}

check_private_tmp_run_and_machine_id() {
    local token=relaunch-private-$$
    in_sandbox sh -c "echo $token >/tmp/$token && echo $token >/run/$token"
    [[ ! -e "/tmp/$token" && ! -e "/run/$token" ]] || fail "a file written in the sandbox's /tmp or /run appeared on the host"
    in_sandbox test -e "/tmp/$token" || fail "the sandbox's /tmp lost a file"
    [[ "$(in_sandbox cat /etc/machine-id)" != "$(cat /etc/machine-id 2>/dev/null)" ]] ||
        fail "the sandbox shares the host's machine-id"
}

# A second sandbox, named, beside this one (scripts/sandbox --name): its own PID 1, machine id, bus and
# store. A permission changed in it stays unchanged here and its app's kill leaves this one's app
# running; its down leaves this sandbox up. The post checks then find the host as it was, though
# another sandbox came and went during the run.
check_named_sandbox_runs_beside_this_one() {
    local other=side-$$ here_pid other_pid here_app_pid other_app_pid before
    side() { "$SANDBOX" --name "$other" "$@"; }
    side down >/dev/null 2>&1 || true
    trap 'side down >/dev/null 2>&1 || true' EXIT
    expect_exit 0 side up ${BIN_DIR:+--bin-dir "$BIN_DIR"}
    here_pid=$("$SANDBOX" status | sed -n 's/^sandbox: running, pid \([0-9]*\).*/\1/p')
    other_pid=$(side status | sed -n 's/^sandbox: running, pid \([0-9]*\).*/\1/p')
    [[ -n $here_pid && -n $other_pid && $here_pid != "$other_pid" ]] || fail "two sandboxes, two PID 1s: '$here_pid' and '$other_pid'"
    [[ "$(readlink "/proc/$here_pid/ns/pid")" != "$(readlink "/proc/$other_pid/ns/pid")" ]] || fail "both sandboxes share a PID namespace"
    [[ "$(in_sandbox cat /etc/machine-id)" != "$(side exec -- cat /etc/machine-id)" ]] || fail "both sandboxes have one machine id"

    before=$(in_sandbox relaunchctl permission get checkin-demo microphone)
    here_app_pid=$(in_sandbox systemctl show -P MainPID checkin-demo.service)
    other_app_pid=$(side exec -- systemctl show -P MainPID checkin-demo.service)
    local state=denied
    [[ $before != denied ]] || state=allowed
    side exec -- relaunchctl permission set checkin-demo microphone "$state" >/dev/null ||
        fail "relaunchctl permission set in the other sandbox failed"
    assert_eq "$state" "$(side exec -- relaunchctl permission get checkin-demo microphone)" "the other sandbox's microphone"
    assert_eq "$before" "$(in_sandbox relaunchctl permission get checkin-demo microphone)" "this sandbox's microphone after the other's change"
    # The change killed the other sandbox's app (ios: every change but location's); this one's runs on.
    wait_until 30 side exec -- sh -c "pid=\$(systemctl show -P MainPID checkin-demo.service); [ \"\$pid\" != 0 ] && [ \"\$pid\" != $other_app_pid ]"
    assert_eq "$here_app_pid" "$(in_sandbox systemctl show -P MainPID checkin-demo.service)" "this sandbox's checkin-demo PID"

    expect_exit 0 side down
    expect_exit 3 side status
    [[ ! -d /sys/fs/cgroup/"$(side paths | sed -n 's/^cgroup //p')" ]] || fail "the other sandbox's cgroup is left after its down"
    assert_eq active "$(in_sandbox systemctl is-active permissiond.service)" "this sandbox's permissiond after the other's down"
    rm -rf "$(side paths | sed -n 's/^state //p')"
    trap - EXIT
}
