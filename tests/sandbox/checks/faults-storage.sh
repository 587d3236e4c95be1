# Faults of the disks and services the apps lean on, each with what the user must still see: the app's
# state directory read-only or full (the fd store's copy restores), the fd store full (the file restores),
# permissiond's database on a full disk (a Set fails cleanly, nothing half-written, nobody killed), and
# journald stopped while apps log and relaunch (nothing hangs). Every drop-in and mount a check makes is
# undone by its EXIT trap, also when it fails. Uses the helpers of checkin-demo.sh and pd-helpers.sh.
# (The clock stepped during a toggle is not injected here: the sandbox has no clock of its own, see
# docs/DESIGN.md "Faults the suite injects".)

FAULT_STATE_DIR=/var/lib/checkin-demo
FAULT_PD_DIR=/var/lib/permissiond
FAULT_PRESERVED_ID=21ad727465684cd29e7b9bc1c3d456a7
FAULT_RESTORED_ID=0c0151517edf47b1a988576b4b5e81e0
FAULT_LAUNCHED_ID=0c3ece682843457296ab0da296a09171

# fault_drop_in UNIT NAME TEXT: a runtime drop-in NAME for UNIT holding TEXT (printf format), then a
# daemon-reload. fault_remove_drop_in UNIT NAME undoes it (and reloads).
fault_drop_in() {
    in_sandbox sh -c "mkdir -p /run/systemd/system/$1.d && printf '$3' >/run/systemd/system/$1.d/$2"
    in_sandbox systemctl daemon-reload
}
fault_remove_drop_in() {
    in_sandbox rm -f "/run/systemd/system/$1.d/$2"
    in_sandbox systemctl daemon-reload
}

# fault_app_entry INVOCATION MESSAGE_ID JQ-FILTER: that instance's entries with the id, through the filter.
fault_app_entry() {
    demo_journal "$1" "$2" | jq -r "$3"
}

# fault_entry_logged INVOCATION MESSAGE_ID JQ-CONDITION: true once the instance logged an entry with the
# id for which the condition holds; prints what it saw.
fault_entry_logged() {
    local seen
    seen=$(demo_journal "$1" "$2" | jq -c "select($3)")
    echo "entries of $1 with MESSAGE_ID=$2 matching $3: ${seen:-none}"
    [[ -n "$seen" ]]
}

# fault_warning_logged INVOCATION TEXT: true once the instance logged a line containing TEXT; prints it.
fault_warning_logged() {
    local seen
    seen=$(in_sandbox journalctl --namespace='*' --no-pager -o json "_SYSTEMD_INVOCATION_ID=$1" | jq -c "select(.MESSAGE | contains(\"$2\"))")
    echo "entries of $1 containing '$2': ${seen:-none}"
    [[ -n "$seen" ]]
}

# fault_background_then_kill TEXT COPIES: with the modal open holding TEXT, goes to the background
# (preserved when the call returns), SIGKILLs the app, waits for the relaunch and sees the modal back;
# then the killed instance's `state preserved` must say ARCHIVE_COPIES=COPIES.
fault_background_then_kill() {
    demo_call Background >/dev/null
    demo_kill_and_wait KILL
    demo_assert_restored "$1"
    wait_until 60 fault_entry_logged "$DEMO_OLD_INVOCATION" "$FAULT_PRESERVED_ID" ".ARCHIVE_COPIES == \"$2\""
}

# fault_assert_restored_from COPY: the running instance says, in both launch entries, that COPY restored it.
fault_assert_restored_from() {
    assert_eq "$1" "$(fault_app_entry "$DEMO_NEW_INVOCATION" "$FAULT_RESTORED_ID" .ARCHIVE_SOURCE)" \
        "ARCHIVE_SOURCE of restoration finished"
    assert_eq "$1" "$(fault_app_entry "$DEMO_NEW_INVOCATION" "$FAULT_LAUNCHED_ID" .ARCHIVE_SOURCE)" \
        "ARCHIVE_SOURCE of app launched"
}

# fault_expect_fd_store_restore TEXT ERROR: the file cannot be written (ERROR, strerror's words): with the
# modal holding TEXT, background and SIGKILL; the modal comes back from the fd store's copy, the killed
# instance said the file failed and why, and no archive file was left.
fault_expect_fd_store_restore() {
    fault_background_then_kill "$1" fdstore
    wait_until 60 fault_warning_logged "$DEMO_OLD_INVOCATION" "could not keep the saved state file"
    assert_contains "$(in_sandbox journalctl --namespace='*' --no-pager -o json "_SYSTEMD_INVOCATION_ID=$DEMO_OLD_INVOCATION" \
        ARCHIVE_COPY=file | jq -r .ERROR)" "$2" "ERROR of the file's failure"
    in_sandbox test ! -e "$DEMO_ARCHIVE" || fail "$DEMO_ARCHIVE exists although it could not be written ($2)"
    fault_assert_restored_from fdstore
}

# fault_restart_app: a fresh start of the app (drops its fd store), ready again.
fault_restart_app() {
    in_sandbox systemctl restart "$DEMO_UNIT"
    demo_wait_ready
}

# fault_fresh_app_with_drop_in NAME TEXT: the app force-quit (no saved state), then started again under
# the drop-in NAME holding TEXT; the EXIT trap removes it and restarts the app without it.
fault_fresh_app_with_drop_in() {
    demo_restart_fresh
    trap "fault_remove_drop_in '$DEMO_UNIT' '$1'; fault_restart_app" EXIT
    fault_drop_in "$DEMO_UNIT" "$1" "$2"
    fault_restart_app
}

check_fault_read_only_state_directory_restores_from_the_fd_store() {
    local text="read-only disk $$"
    fault_fresh_app_with_drop_in 90-relaunch-check-read-only.conf "[Service]\nReadOnlyPaths=$FAULT_STATE_DIR\n"
    assert_contains "$(unit_prop "$DEMO_UNIT" ReadOnlyPaths)" "$FAULT_STATE_DIR" "ReadOnlyPaths of the app"
    demo_open_modal "$text"
    fault_expect_fd_store_restore "$text" "Read-only file system"
}

check_fault_full_state_directory_restores_from_the_fd_store() {
    local text="disk full $$"
    demo_restart_fresh
    # A 1 MiB tmpfs as the state directory, mounted in the manager's namespace while the app is stopped,
    # so every instance's namespace sees it; the trap brings back the directory below it.
    trap 'in_sandbox systemctl stop "$DEMO_UNIT"; in_sandbox umount "$FAULT_STATE_DIR" || true; fault_restart_app' EXIT
    in_sandbox systemctl stop "$DEMO_UNIT"
    in_sandbox mount -t tmpfs -o size=1m,mode=0700 relaunch-check-full "$FAULT_STATE_DIR"
    in_sandbox systemctl start "$DEMO_UNIT"
    demo_wait_ready
    demo_open_modal "$text"
    # Fill it (root has no reserve on tmpfs), and see a write fail.
    in_sandbox sh -c "dd if=/dev/zero of=$FAULT_STATE_DIR/.relaunch-check-filler bs=4096 2>/dev/null; true"
    assert_eq 0 "$(in_sandbox df --output=avail "$FAULT_STATE_DIR" | tail -n1 | tr -d ' ')" "free space in $FAULT_STATE_DIR"
    expect_exit 1 in_sandbox sh -c "head -c 4096 /dev/zero >$FAULT_STATE_DIR/.relaunch-check-probe"
    assert_contains "$EXPECT_OUTPUT" "No space left on device" "a write to the full state directory"
    fault_expect_fd_store_restore "$text" "No space left on device"
    # Space back: the next preservation writes both copies again.
    in_sandbox rm -f "$FAULT_STATE_DIR/.relaunch-check-filler" "$FAULT_STATE_DIR/.relaunch-check-probe"
    local invocation
    invocation=$(unit_prop "$DEMO_UNIT" InvocationID)
    demo_call Background >/dev/null
    wait_until 60 fault_entry_logged "$invocation" "$FAULT_PRESERVED_ID" '.ARCHIVE_COPIES == "file,fdstore"'
    in_sandbox test -s "$DEMO_ARCHIVE" || fail "no $DEMO_ARCHIVE once space came back"
}

check_fault_full_fd_store_restores_from_the_file() {
    local text="fd store full $$"
    # FileDescriptorStoreMax=0: the store is full before anything is in it. (Only the app's main process may
    # store fds in its unit, NotifyAccess=main, so nothing else can take the one slot of a store of 1.)
    fault_fresh_app_with_drop_in 90-relaunch-check-fd-store.conf '[Service]\nFileDescriptorStoreMax=0\n'
    assert_eq 0 "$(unit_prop "$DEMO_UNIT" FileDescriptorStoreMax)" "FileDescriptorStoreMax of the app"
    demo_open_modal "$text"
    fault_background_then_kill "$text" file,fdstore
    assert_eq 0 "$(unit_prop "$DEMO_UNIT" NFileDescriptorStore)" "fds in the unit's fd store"
    # systemd refused the copy and said so; the app restored from its file and says that.
    assert_contains "$(in_sandbox journalctl --no-pager -o cat UNIT="$DEMO_UNIT" _PID=1)" "FileDescriptorStoreMax" \
        "systemd's entries for the app"
    fault_assert_restored_from file
}
