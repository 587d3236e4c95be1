# permissiond and the app under faults: a daemon SIGKILLed between commit and kill (the outbox), a hung
# bus loop (the watchdog), the app started while permissiond is down (D-Bus activation), a change that
# does not kill (the app follows Changed), dbus-daemon restarted and systemd re-executed (reconnects).
# Each checks an invariant: the app's camera equals the store's, and a kill hit the instance that owed it.
# Uses the helpers of checkin-demo.sh and pd-helpers.sh (every check file is loaded).

# faults_camera_converges STATE: the running app comes to say camera STATE (it learns without a kill,
# from Changed or its first Get); fails saying what the app said last.
faults_camera_converges() {
    wait_for_value 60 "$1" faults_app_camera
}
faults_app_camera() {
    in_sandbox relaunchctl app state --json | jq -r .camera
}

# faults_set_camera STATE: root Set through relaunchctl, whatever it answers.
faults_set_camera() {
    in_sandbox relaunchctl permission set "$PD_APP" camera "$1" >/dev/null 2>&1 || true
}

check_outbox_kills_after_permissiond_died_between_commit_and_kill() {
    demo_wait_ready
    local before state pd_before
    state=$(pd_other "$(pd_get "$PD_APP" camera)")
    before=$(unit_prop "$DEMO_UNIT" InvocationID)
    pd_before=$(unit_prop permissiond.service InvocationID)
    pd_call TestHook s die-before-kill >/dev/null
    # permissiond commits, then SIGKILLs itself instead of killing the app: the caller gets no reply.
    expect_exit 1 in_sandbox busctl call --timeout=10 "$PD_DEST" "$PD_PATH" "$PD_IFACE" Set sss "$PD_APP" camera "$state"
    # systemd restarts permissiond, which finds the pending kill and kills exactly that instance.
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID permissiond.service)\" != '$pd_before' ]"
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $DEMO_UNIT)\" != '$before' ]"
    demo_wait_ready
    assert_eq "$state" "$(pd_get "$PD_APP" camera)" "stored camera after the daemon died"
    assert_eq "$before" "$(in_sandbox busctl call "$PD_DEST" "$PD_PATH" "$PD_IFACE" LastKill s "$PD_APP" |
        awk '{ gsub(/"/, ""); print $2 }')" "LastKill names the instance that owed the kill"
    local killed
    killed=$(in_sandbox journalctl --namespace='*' --no-pager -o json MESSAGE_ID=$PD_KILLED_ID KILLED_INVOCATION_ID="$before" | wc -l)
    assert_eq 1 "$killed" "kill entries for the instance $before"
    assert_eq "$state" "$(demo_state .camera)" "camera of the relaunched app"
}

check_permissiond_watchdog_aborts_a_hung_bus_loop() {
    local restarts before
    restarts=$(unit_prop permissiond.service NRestarts)
    before=$(unit_prop permissiond.service InvocationID)
    # The hook blocks permissiond's bus thread, which pings the watchdog (WatchdogSec=10s).
    (pd_call TestHook s hang >/dev/null 2>&1 || true) &
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P NRestarts permissiond.service)\" -gt $restarts ]"
    wait_until 60 unit_is_active permissiond.service
    assert_eq watchdog "$(in_sandbox journalctl -o json --no-pager UNIT=permissiond.service INVOCATION_ID="$before" |
        jq -r 'select(.UNIT_RESULT != null) | .UNIT_RESULT' | tail -n1)" "UNIT_RESULT of the hung permissiond"
    pd_get "$PD_APP" camera >/dev/null
}

check_app_started_while_permissiond_is_down_learns_the_stored_permission() {
    demo_wait_ready
    local state
    state=$(pd_other "$(pd_get "$PD_APP" camera)")
    faults_set_camera "$state"
    demo_wait_ready
    # Both down, then only the app started: its Get activates permissiond over D-Bus and waits for it.
    in_sandbox systemctl stop "$DEMO_UNIT" permissiond.service
    in_sandbox systemctl start "$DEMO_UNIT"
    demo_wait_ready
    faults_camera_converges "$state"
    unit_is_active permissiond.service || fail "permissiond was not activated by the app's call"
}

check_app_killed_together_with_permissiond_ends_with_the_stored_permission() {
    demo_wait_ready
    local state
    state=$(pd_other "$(pd_get "$PD_APP" camera)")
    faults_set_camera "$state"
    demo_wait_ready
    in_sandbox systemctl kill --signal=KILL "$DEMO_UNIT" permissiond.service
    wait_until 60 unit_is_active permissiond.service
    demo_wait_ready
    faults_camera_converges "$state"
}

check_app_follows_a_change_that_does_not_kill() {
    demo_wait_ready
    in_sandbox relaunchctl permission set "$PD_APP" camera denied >/dev/null 2>&1 || true
    # The policy goes back to the default however this check ends.
    trap 'pd_set_policy default' EXIT
    pd_set_policy android
    demo_wait_ready
    local before
    before=$(unit_prop "$DEMO_UNIT" InvocationID)
    # A grant under android kills nothing: the app learns it from Changed, in place.
    in_sandbox relaunchctl permission set "$PD_APP" camera allowed >/dev/null
    faults_camera_converges allowed
    assert_eq "$before" "$(unit_prop "$DEMO_UNIT" InvocationID)" "the app was not relaunched"
    trap - EXIT
    pd_set_policy default
}

check_kills_after_dbus_daemon_restart() {
    demo_wait_ready
    local pd_pid
    pd_pid=$(unit_prop permissiond.service MainPID)
    in_sandbox systemctl restart dbus.service
    demo_wait_ready
    faults_expect_killing_set
    assert_eq "$pd_pid" "$(unit_prop permissiond.service MainPID)" "permissiond reconnected instead of restarting"
}

check_kills_after_systemd_reexec() {
    demo_wait_ready
    in_sandbox systemctl daemon-reexec
    demo_wait_ready
    faults_expect_killing_set
}

# faults_expect_killing_set: a camera change kills the running instance and the relaunched app knows it.
faults_expect_killing_set() {
    local before state
    before=$(unit_prop "$DEMO_UNIT" InvocationID)
    state=$(pd_other "$(pd_get "$PD_APP" camera)")
    expect_exit 0 in_sandbox relaunchctl permission set "$PD_APP" camera "$state"
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $DEMO_UNIT)\" != '$before' ]"
    demo_wait_ready
    assert_eq "$state" "$(demo_state .camera)" "camera of the relaunched app"
}
