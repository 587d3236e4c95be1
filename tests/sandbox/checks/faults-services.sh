# Faults of what permissiond and the apps lean on: permissiond's database on a full disk (a Set fails
# cleanly with one line and exit 1, the store keeps its previous state, nothing is half-written, the app
# is not killed for a change that was not stored, and Sets work again once there is space), and journald
# stopped while apps log (they keep running and relaunching; every wait is bounded). Every mount and
# stopped service is brought back by the check's EXIT trap, also when it fails. Uses the helpers of
# checkin-demo.sh, pd-helpers.sh and faults-storage.sh.

FAULT_PD_SAVE=/run/relaunch-check-permissiond

# fault_pd_sql SQL: runs SQL on permissiond's database (read only), printing the result.
fault_pd_sql() {
    in_sandbox sqlite3 -readonly "$FAULT_PD_DIR/permissions.db" "$1"
}

# fault_pd_disk_back: frees the space, moves the database from the small tmpfs back to the directory
# below it, unmounts it and starts permissiond again. Does nothing to a directory that is not mounted.
fault_pd_disk_back() {
    in_sandbox sh -c "
        rm -f $FAULT_PD_DIR/.relaunch-check-filler
        systemctl stop permissiond.service
        if mountpoint -q $FAULT_PD_DIR; then
            rm -rf $FAULT_PD_SAVE && cp -a $FAULT_PD_DIR $FAULT_PD_SAVE && umount $FAULT_PD_DIR &&
                find $FAULT_PD_DIR -mindepth 1 -delete && cp -a $FAULT_PD_SAVE/. $FAULT_PD_DIR/ && rm -rf $FAULT_PD_SAVE
        fi
        systemctl start permissiond.service"
    pd_daemon_ready
}

check_fault_permissiond_database_on_a_full_disk_refuses_a_set_cleanly() {
    demo_wait_ready
    trap fault_pd_disk_back EXIT
    # The database moves onto a tmpfs of its size plus 2 MiB, mounted while permissiond is stopped.
    in_sandbox sh -c "
        systemctl stop permissiond.service &&
        size=\$(( \$(du -sk $FAULT_PD_DIR | cut -f1) + 2048 )) &&
        rm -rf $FAULT_PD_SAVE && cp -a $FAULT_PD_DIR $FAULT_PD_SAVE &&
        mount -t tmpfs -o size=\${size}k,mode=0700 relaunch-check-pd-full $FAULT_PD_DIR &&
        cp -a $FAULT_PD_SAVE/. $FAULT_PD_DIR/ && rm -rf $FAULT_PD_SAVE &&
        systemctl start permissiond.service"
    pd_daemon_ready
    local before new last_kill invocation pd_pid history
    before=$(pd_get "$PD_APP" camera)
    new=$(pd_other "$before")
    last_kill=$(pd_call LastKill s "$PD_APP")
    invocation=$(unit_prop "$DEMO_UNIT" InvocationID)
    pd_pid=$(unit_prop permissiond.service MainPID)
    history=$(fault_pd_sql "SELECT count(*) FROM permission_history")
    in_sandbox sh -c "dd if=/dev/zero of=$FAULT_PD_DIR/.relaunch-check-filler bs=4096 2>/dev/null; true"
    assert_eq 0 "$(in_sandbox df --output=avail "$FAULT_PD_DIR" | tail -n1 | tr -d ' ')" "free space in $FAULT_PD_DIR"

    # The Set fails: exit 1, one line that says so.
    expect_exit 1 timeout 60 "$SANDBOX" exec -- relaunchctl permission set "$PD_APP" camera "$new"
    note "a Set on a full disk: $EXPECT_OUTPUT"
    assert_eq 1 "$(wc -l <<<"$EXPECT_OUTPUT")" "lines of relaunchctl's error"
    # Nothing changed: the store, its history, the last kill, the app's instance, permissiond itself.
    assert_eq "$before" "$(pd_get "$PD_APP" camera)" "camera after the failed Set"
    assert_eq "$last_kill" "$(pd_call LastKill s "$PD_APP")" "LastKill after the failed Set"
    assert_eq "$invocation" "$(unit_prop "$DEMO_UNIT" InvocationID)" "the app's instance (no kill for an unstored change)"
    assert_eq "$pd_pid" "$(unit_prop permissiond.service MainPID)" "permissiond's MainPID (it did not die)"
    assert_eq "$history" "$(fault_pd_sql "SELECT count(*) FROM permission_history")" "history rows"
    assert_eq "$before" "$(fault_pd_sql "SELECT coalesce((SELECT state FROM permission_state
        WHERE app = '$PD_APP' AND permission = 'camera'), 'not-determined')")" \
        "camera in the database file"
    assert_eq ok "$(fault_pd_sql "PRAGMA integrity_check")" "integrity of the database"
    assert_eq 0 "$(fault_pd_sql "SELECT count(*) FROM pending_kill")" "kills owed"

    # Space back: the same Set is stored and kills the app once.
    in_sandbox rm -f "$FAULT_PD_DIR/.relaunch-check-filler"
    expect_exit 0 timeout 60 "$SANDBOX" exec -- relaunchctl permission set "$PD_APP" camera "$new"
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $DEMO_UNIT)\" != '$invocation' ]"
    demo_wait_ready
    assert_eq "$new" "$(pd_get "$PD_APP" camera)" "camera once there was space"
    assert_eq "$new" "$(demo_state .camera)" "camera of the relaunched app"
    assert_eq $((history + 1)) "$(fault_pd_sql "SELECT count(*) FROM permission_history")" "history rows after the Set"
}

# fault_journald_down: journald and its sockets are all stopped; prints their states.
fault_journald_down() {
    local states
    states=$(in_sandbox systemctl is-active systemd-journald.service systemd-journald.socket \
        systemd-journald-dev-log.socket | tr '\n' ' ') || true
    echo "journald service, socket, dev-log socket: $states"
    [[ "$states" == "inactive inactive inactive " ]]
}

# fault_app_pids: "unit=MainPID" of every registered app, one a line.
fault_app_pids() {
    local unit
    for unit in $(in_sandbox relaunchctl app list --json | jq -r '.[].unit'); do
        echo "$unit=$(unit_prop "$unit" MainPID)"
    done
}

# (The default journald only: permissiond's and the apps' namespace sockets cannot be stopped under
# them, as their units require those sockets; the frozen check below stops every journald reading.)
check_fault_journald_stopped_apps_keep_running_and_relaunching() {
    demo_restart_fresh
    local pids text="no journald $$" round state before
    pids=$(fault_app_pids)
    trap 'in_sandbox systemctl start systemd-journald.socket systemd-journald-dev-log.socket systemd-journald.service' EXIT
    in_sandbox systemctl stop systemd-journald.socket systemd-journald-dev-log.socket systemd-journald.service
    wait_until 60 fault_journald_down
    # Input, preservation, kills and relaunches, each of which logs, with no journald to take it.
    demo_open_modal "$text"
    for round in 1 2 3; do
        state=$(pd_other "$(pd_get "$PD_APP" camera)")
        before=$(unit_prop "$DEMO_UNIT" InvocationID)
        demo_call Background >/dev/null
        expect_exit 0 timeout 60 "$SANDBOX" exec -- relaunchctl permission set "$PD_APP" camera "$state"
        wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $DEMO_UNIT)\" != '$before' ]"
        demo_wait_ready
        demo_assert_restored "$text"
        assert_eq "$state" "$(demo_state .camera)" "camera of the app relaunched in round $round"
    done
    fault_journald_down || fail "journald came back while the apps logged (socket activation?)"
    # The apps that were not killed still run, as the same processes.
    assert_eq "$(grep -v "^$DEMO_UNIT=" <<<"$pids")" "$(fault_app_pids | grep -v "^$DEMO_UNIT=")" "the other apps' MainPIDs"
    # journald back: the app's next entry reaches it.
    in_sandbox systemctl start systemd-journald.socket systemd-journald-dev-log.socket systemd-journald.service
    trap - EXIT
    local invocation
    invocation=$(unit_prop "$DEMO_UNIT" InvocationID)
    demo_call Background >/dev/null
    wait_until 60 fault_entry_logged "$invocation" "$FAULT_PRESERVED_ID" '.ARCHIVE_COPIES == "file,fdstore"'
    demo_call Foreground >/dev/null
}

check_fault_journald_frozen_apps_keep_answering_and_relaunching() {
    local text="journald frozen $$" round invocation restarts
    demo_restart_fresh
    demo_open_modal "$text"
    invocation=$(unit_prop "$DEMO_UNIT" InvocationID)
    restarts=$(unit_prop "$DEMO_UNIT" NRestarts)
    # journald stops reading (its sockets stay): a sender that waits for it would wait forever. Every
    # journald: the default one (PID 1's entries) and each namespace's (permissiond's, the apps').
    local journald
    journald=systemd-journald@$(unit_prop "$DEMO_UNIT" LogNamespace).service
    [[ "$journald" != systemd-journald@.service ]] || journald=systemd-journald.service
    trap "in_sandbox systemctl kill --signal=CONT 'systemd-journald*.service'" EXIT
    in_sandbox systemctl kill --signal=STOP 'systemd-journald*.service'
    assert_eq T "$(in_sandbox ps -o state= -p "$(unit_prop "$journald" MainPID)" | cut -c1)" "the state of $journald, the app's journald (stopped)"
    # Each round logs two lifecycle entries and a preservation: far more than journald's socket queues.
    for round in $(seq 1 30); do
        demo_call Background >/dev/null
        demo_call Foreground >/dev/null
    done
    assert_eq "$invocation" "$(unit_prop "$DEMO_UNIT" InvocationID)" "the app's instance after 60 calls (no watchdog abort)"
    assert_eq "$restarts" "$(unit_prop "$DEMO_UNIT" NRestarts)" "NRestarts after 60 calls"
    # A kill and relaunch with journald still frozen: the launch logs too.
    demo_call Background >/dev/null
    demo_kill_and_wait KILL
    demo_assert_restored "$text"
    in_sandbox systemctl kill --signal=CONT 'systemd-journald*.service'
    trap - EXIT
    # Reading again, journald gets the app's next entry, after one saying how many were dropped.
    demo_call Background >/dev/null
    wait_until 60 fault_warning_logged "$DEMO_NEW_INVOCATION" "log entries while journald was not reading them"
    demo_call Foreground >/dev/null
}
