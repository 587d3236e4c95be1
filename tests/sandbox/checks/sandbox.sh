# The sandbox itself: scripts/sandbox's contract, journald and the system bus inside, the units'
# supervision. Works with the C stand-ins and with the real programs.

check_units_active() {
    assert_eq active "$(in_sandbox systemctl is-active permissiond.service)" permissiond
    assert_eq active "$(in_sandbox systemctl is-active checkin-demo.service)" checkin-demo
}

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

check_journal_round_trip() {
    local token=relaunch-journal-$$
    echo "$token" | in_sandbox systemd-cat -t relaunch-check
    wait_until 60 sh -c "'$SANDBOX' exec -- journalctl -t relaunch-check -o cat --no-pager | grep -qx '$token'"
    # systemd's own entries about our units land in the journal too (the default log target).
    assert_contains "$(in_sandbox journalctl -u checkin-demo.service -o cat --no-pager)" "Started checkin-demo.service"
}

check_system_bus_names() {
    local names
    names=$(in_sandbox busctl list --no-pager --acquired)
    assert_contains "$names" "org.freedesktop.systemd1"
    assert_contains "$names" "org.relaunch.Permissions1"
    # The app takes its name only once it has restored and said READY=1.
    wait_until 60 sh -c "'$SANDBOX' exec -- busctl list --acquired --no-pager | grep -q org.relaunch.CheckInDemo1"
}

check_catalog_has_every_contract_id() {
    local catalog id ids
    catalog=$(in_sandbox journalctl --list-catalog --no-pager)
    # Every id Relaunch itself writes (enum MessageID, up to the systemd ids that follow it): a new
    # id without a catalog entry fails here.
    ids=$(sed -En '/^(public|package) enum MessageID/,/^}/p' "$REPO/Sources/RelaunchContract/MessageID.swift" |
        grep -oE '"[0-9a-f]{32}"' | tr -d '"')
    [[ $(wc -w <<<"$ids") -ge 8 ]] || fail "found only $(wc -w <<<"$ids") MESSAGE_IDs in MessageID.swift"
    for id in $ids; do
        assert_contains "$catalog" "$id" "journalctl --list-catalog"
    done
}

check_units_verify_clean() {
    local out
    out=$(in_sandbox systemd-analyze verify "$REPO/systemd/checkin-demo.service" "$REPO/systemd/permissiond.service" 2>&1) ||
        fail "systemd-analyze verify failed: $out"
    assert_eq "" "$out" "systemd-analyze verify output"
}

check_security_exposure() {
    local unit score limit
    for unit in checkin-demo:0.5 permissiond:1.0; do
        limit=${unit#*:}
        unit=${unit%%:*}.service
        score=$(in_sandbox systemd-analyze security --no-pager "$unit" | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
        [[ -n "$score" ]] || fail "systemd-analyze security printed no score for $unit"
        note "systemd-analyze security $unit: $score (limit $limit)"
        awk -v s="$score" -v l="$limit" 'BEGIN { exit !(s <= l) }' || fail "$unit exposure $score is above $limit"
    done
}

check_kill_relaunches_the_app() {
    local restarts pid
    wait_until 60 unit_is_active checkin-demo.service
    restarts=$(unit_prop checkin-demo.service NRestarts)
    pid=$(unit_prop checkin-demo.service MainPID)
    in_sandbox systemctl kill --signal=KILL checkin-demo.service
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P NRestarts checkin-demo.service)\" = $((restarts + 1)) ]"
    wait_until 60 unit_is_active checkin-demo.service
    [[ "$(unit_prop checkin-demo.service MainPID)" != "$pid" ]] || fail "MainPID did not change after SIGKILL"
    assert_contains "$(in_sandbox journalctl -u checkin-demo.service -o cat --no-pager)" "status=9/KILL"
}

check_app_runs_as_its_user() {
    assert_eq relaunch-checkin "$(unit_prop checkin-demo.service User)"
    local pid uid
    pid=$(unit_prop checkin-demo.service MainPID)
    uid=$(in_sandbox awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
    assert_eq "$(in_sandbox id -u relaunch-checkin)" "$uid" "uid of checkin-demo's main process"
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
