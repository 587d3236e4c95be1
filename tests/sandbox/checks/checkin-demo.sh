# checkin-demo under its real unit: READY only once restored, SIGKILL / watchdog / crash relaunches,
# the fd store copy, quit and force quit, the contract's journal events, who may drive the app.
# Driven with busctl (org.relaunch.App1 on org.relaunch.CheckInDemo1), read back with busctl and journalctl -o json.
# Every check leaves the app running and ready. Needs jq on the host.

DEMO_UNIT=checkin-demo.service
DEMO_BUS=(org.relaunch.CheckInDemo1 /org/relaunch/App1 org.relaunch.App1)
DEMO_ARCHIVE=/var/lib/checkin-demo/restoration.archive
DEMO_MODAL_NAV=TabViewController/CheckInViewController/CheckInModalNavigationController

# demo_call METHOD [SIGNATURE ARG...]: calls the app as root; busctl's output on stdout.
demo_call() {
    in_sandbox busctl call --timeout=10 "${DEMO_BUS[@]}" "$@"
}

# demo_ready: true once the running instance of the unit answers Ready() with (true, its InvocationID).
# Prints what it saw (for wait_until's message).
demo_ready() {
    local state invocation answer
    state=$(unit_prop "$DEMO_UNIT" ActiveState)
    [[ "$state" == active ]] || { echo "$DEMO_UNIT is $state"; return 1; }
    invocation=$(unit_prop "$DEMO_UNIT" InvocationID)
    answer=$(in_sandbox busctl call --timeout=10 "${DEMO_BUS[@]}" Ready 2>&1) || { echo "Ready() failed: $answer"; return 1; }
    echo "Ready() of $DEMO_UNIT (InvocationID $invocation) answered: $answer"
    [[ "$answer" == "(bs) true \"$invocation\"" ]]
}

demo_wait_ready() {
    wait_until "${1:-60}" demo_ready
}

# demo_state [JQ-FILTER]: the app's state JSON (State()), or the filter's raw output on it.
demo_state() {
    command -v jq >/dev/null || fail "jq is missing on the host; apt-get install -y jq"
    in_sandbox busctl --json=short call --timeout=10 "${DEMO_BUS[@]}" State | jq -r '.data[0]' | jq -r "${1:-.}"
}

# demo_journal INVOCATION_ID MESSAGE_ID: that instance's entries with that MESSAGE_ID, one JSON object a line.
demo_journal() {
    in_sandbox journalctl --no-pager -o json "_SYSTEMD_INVOCATION_ID=$1" "MESSAGE_ID=$2"
}

# demo_restart_fresh: force quit (discards every saved copy), start again, wait until ready.
demo_restart_fresh() {
    demo_wait_ready
    demo_call Quit b true >/dev/null
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P ActiveState $DEMO_UNIT)\" = inactive ]"
    in_sandbox systemctl start "$DEMO_UNIT"
    demo_wait_ready
}

# demo_open_modal NOTE: shows the check-in modal with NOTE typed into it.
demo_open_modal() {
    demo_call Tap s tab:check-in >/dev/null
    demo_call Tap s check-in >/dev/null
    demo_call Type ss party-size 3 >/dev/null
    demo_call Type ss note "$1" >/dev/null
    assert_eq "$1" "$(demo_state .modal.note)" "note typed into the modal"
}

# demo_kill_and_wait SIGNAL: kills the main process, waits for systemd's restart and the new instance's READY.
# Sets DEMO_OLD_INVOCATION and DEMO_NEW_INVOCATION.
demo_kill_and_wait() {
    local restarts
    restarts=$(unit_prop "$DEMO_UNIT" NRestarts)
    DEMO_OLD_INVOCATION=$(unit_prop "$DEMO_UNIT" InvocationID)
    in_sandbox systemctl kill --signal="$1" "$DEMO_UNIT"
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P NRestarts $DEMO_UNIT)\" -gt $restarts ]"
    demo_wait_ready
    DEMO_NEW_INVOCATION=$(unit_prop "$DEMO_UNIT" InvocationID)
    [[ "$DEMO_NEW_INVOCATION" != "$DEMO_OLD_INVOCATION" ]] || fail "InvocationID did not change after $1"
}

# demo_assert_restored NOTE: the running instance restored the modal with NOTE.
demo_assert_restored() {
    assert_eq restored "$(demo_state .launch.outcome)" "launch.outcome"
    assert_eq "$1" "$(demo_state .modal.note)" "modal.note after the relaunch"
    assert_eq 3 "$(demo_state .modal.partySize)" "modal.partySize after the relaunch"
    assert_eq "$DEMO_MODAL_NAV" "$(demo_state .presented)" "presented"
    assert_eq appDelegate "$(demo_state ".restoredVia[\"$DEMO_MODAL_NAV\"]")" "restoredVia of the modal's navigation controller"
    assert_eq active "$(demo_state .lifecycle)" "lifecycle after the relaunch"
}

check_demo_reaches_ready_and_serves() {
    demo_wait_ready
    local status
    status=$(unit_prop "$DEMO_UNIT" StatusText)
    [[ -n "$status" ]] || fail "checkin-demo sent READY=1 without STATUS="
    note "checkin-demo STATUS: $status"
    assert_contains "$(in_sandbox busctl list --acquired --no-pager)" org.relaunch.CheckInDemo1 "bus names"
    assert_contains "$(demo_call Screen)" "build 1" "Screen()"
    assert_eq active "$(demo_state .lifecycle)" "lifecycle"
    [[ "$(unit_prop "$DEMO_UNIT" WatchdogUSec)" != 0 ]] || fail "the unit has no watchdog"
}

check_demo_sigkill_in_background_restores_the_modal() {
    local text="Table by the window, $$"
    demo_restart_fresh
    demo_open_modal "$text"
    demo_call Background >/dev/null
    assert_eq background "$(demo_state .lifecycle)" "lifecycle after Background"
    in_sandbox test -s "$DEMO_ARCHIVE" || fail "no $DEMO_ARCHIVE after going to the background"
    assert_eq 1 "$(unit_prop "$DEMO_UNIT" NFileDescriptorStore)" "fds in the unit's fd store"
    demo_kill_and_wait KILL
    demo_assert_restored "$text"
    assert_contains "$(unit_prop "$DEMO_UNIT" StatusText)" "restored" "STATUS after the relaunch"
    assert_contains "$(in_sandbox journalctl -u "$DEMO_UNIT" -o cat --no-pager)" "status=9/KILL"
}

# demo_assert_duration ENTRY SINCE_MONOTONIC_USEC WHAT: ENTRY's DURATION_USEC is a whole number of
# microseconds, at least 1, and no longer than from SINCE to the entry's own monotonic timestamp.
demo_assert_duration() {
    local duration at
    duration=$(jq -r .DURATION_USEC <<<"$1")
    at=$(jq -r .__MONOTONIC_TIMESTAMP <<<"$1")
    [[ $duration =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ && $at =~ ^[0-9]+$ ]] ||
        fail "$3: DURATION_USEC '$duration', entry at '$at', instance from '$2': not whole microseconds: $1"
    [[ $duration -ge 1 && $duration -le $((at - $2)) ]] ||
        fail "$3: DURATION_USEC $duration is not within 1..$((at - $2)) µs (the instance's life up to the entry)"
}

check_demo_journal_events_carry_contract_fields() {
    local text="journal $$" entries first
    demo_restart_fresh
    demo_open_modal "$text"
    demo_call Background >/dev/null
    demo_kill_and_wait KILL
    # The killed instance: lifecycle changed and state preserved.
    entries=$(demo_journal "$DEMO_OLD_INVOCATION" 7cff30b26abb44549eb0f7570b7c2ef9)
    assert_eq background "$(jq -r .LIFECYCLE <<<"$entries" | tail -n1)" "LIFECYCLE of the last lifecycle event"
    entries=$(demo_journal "$DEMO_OLD_INVOCATION" 21ad727465684cd29e7b9bc1c3d456a7 | tail -n1)
    [[ -n "$entries" ]] || fail "no 'state preserved' entry from the killed instance"
    jq -e '(.ARCHIVE_BYTES|tonumber) > 0 and (.ARCHIVE_GENERATION|tonumber) >= 1
        and .SYSLOG_IDENTIFIER == "checkin-demo"' <<<"$entries" >/dev/null ||
        fail "state preserved lacks ARCHIVE_BYTES/ARCHIVE_GENERATION: $entries"
    # The preservation took some time, and no more than the instance had lived when it logged it (its
    # first entry, app launched, comes after its start; both monotonic clock, the same kernel's).
    local born
    born=$(in_sandbox journalctl --no-pager -o json "_SYSTEMD_INVOCATION_ID=$DEMO_OLD_INVOCATION" | jq -rs '.[0].__MONOTONIC_TIMESTAMP')
    demo_assert_duration "$entries" "$born" "state preserved"
    # The relaunched instance: every restored controller in order, then restoration finished, then app launched.
    entries=$(demo_journal "$DEMO_NEW_INVOCATION" 48683d587f3b40cbb9f326d7ea1ba7ea)
    first=$(jq -r .RESTORATION_PATH <<<"$entries" | head -n1)
    assert_eq TabViewController "$first" "first restored path (parents first)"
    assert_eq appDelegate "$(jq -r "select(.RESTORATION_PATH == \"$DEMO_MODAL_NAV\") | .RESTORED_VIA" <<<"$entries")" \
        "RESTORED_VIA of $DEMO_MODAL_NAV"
    local count
    count=$(wc -l <<<"$entries")
    entries=$(demo_journal "$DEMO_NEW_INVOCATION" 0c0151517edf47b1a988576b4b5e81e0)
    assert_eq "$count" "$(jq -r .RESTORED_COUNT <<<"$entries")" "RESTORED_COUNT vs. 'view controller restored' entries"
    assert_eq "$DEMO_MODAL_NAV" "$(jq -r .PRESENTED_PATH <<<"$entries")" "PRESENTED_PATH"
    # The restoration took some time, within the instance's life up to the entry (from its exec).
    demo_assert_duration "$entries" "$(unit_prop "$DEMO_UNIT" ExecMainStartTimestampMonotonic)" "restoration finished"
    entries=$(demo_journal "$DEMO_NEW_INVOCATION" 0c3ece682843457296ab0da296a09171)
    assert_eq restored "$(jq -r .LAUNCH_OUTCOME <<<"$entries")" "LAUNCH_OUTCOME"
    assert_eq 1 "$(jq -r .BUILD_NUMBER <<<"$entries")" "BUILD_NUMBER"
    assert_eq checkin-demo "$(jq -r .SYSLOG_IDENTIFIER <<<"$entries")" "SYSLOG_IDENTIFIER"
}

check_demo_fd_store_copy_restores_without_the_file() {
    local text="only in the fd store $$"
    demo_restart_fresh
    demo_open_modal "$text"
    demo_call Background >/dev/null
    assert_eq 1 "$(unit_prop "$DEMO_UNIT" NFileDescriptorStore)" "fds in the unit's fd store"
    in_sandbox rm "$DEMO_ARCHIVE"
    demo_kill_and_wait KILL
    demo_assert_restored "$text"
    assert_eq fdstore "$(demo_journal "$DEMO_NEW_INVOCATION" 0c0151517edf47b1a988576b4b5e81e0 | jq -r .ARCHIVE_SOURCE)" \
        "ARCHIVE_SOURCE of restoration finished"
}

check_demo_watchdog_hang_is_aborted_and_restored() {
    local text="hung $$"
    demo_restart_fresh
    demo_open_modal "$text"
    demo_call Background >/dev/null
    # The hook deadlocks the bus loop itself (the thread that pings the watchdog), so the call gets no
    # answer: the caller sees the process vanish when systemd aborts it (WatchdogSec=5s), then relaunches it.
    demo_kill_and_wait_for_watchdog demo_call TestHook s hang
    demo_assert_restored "$text"
    local log
    log=$(in_sandbox journalctl -o cat --no-pager UNIT="$DEMO_UNIT" INVOCATION_ID="$DEMO_OLD_INVOCATION")
    assert_contains "$log" "Watchdog timeout" "journal of the hung instance"
    assert_contains "$log" "status=6/ABRT" "journal of the hung instance"
}

# Like demo_kill_and_wait, but the watchdog does the killing, after CMD (run in the background) hangs
# the app.
demo_kill_and_wait_for_watchdog() {
    local restarts
    restarts=$(unit_prop "$DEMO_UNIT" NRestarts)
    DEMO_OLD_INVOCATION=$(unit_prop "$DEMO_UNIT" InvocationID)
    ("$@" >/dev/null 2>&1 || true) &
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P NRestarts $DEMO_UNIT)\" -gt $restarts ]"
    demo_wait_ready
    DEMO_NEW_INVOCATION=$(unit_prop "$DEMO_UNIT" InvocationID)
    assert_eq watchdog "$(in_sandbox journalctl -u "$DEMO_UNIT" -o json --no-pager UNIT="$DEMO_UNIT" \
        INVOCATION_ID="$DEMO_OLD_INVOCATION" | jq -r 'select(.UNIT_RESULT != null) | .UNIT_RESULT' | tail -n1)" \
        "UNIT_RESULT of the hung instance"
}

check_demo_crash_during_restore_discards_next_time() {
    demo_restart_fresh
    demo_open_modal "crash $$"
    demo_call TestHook s crash-next-restore >/dev/null
    demo_call Background >/dev/null
    in_sandbox systemctl kill --signal=KILL "$DEMO_UNIT"
    # The next instance aborts while restoring (READY never comes), the one after discards.
    wait_until 60 sh -c "'$SANDBOX' exec -- journalctl -u $DEMO_UNIT -o cat --no-pager MESSAGE_ID=f90884042ed34e8e85a00a87182d6b03 REASON=crashed-during-restore | grep -q ."
    demo_wait_ready
    assert_eq discarded "$(demo_state .launch.outcome)" "launch.outcome"
    assert_eq crashed-during-restore "$(demo_state .launch.reason)" "launch.reason"
    assert_eq null "$(demo_state .modal)" "modal after the discard"
    in_sandbox test ! -e "$DEMO_ARCHIVE" || fail "$DEMO_ARCHIVE is still there after the discard"
    assert_eq 0 "$(unit_prop "$DEMO_UNIT" NFileDescriptorStore)" "fds in the unit's fd store after the discard"
    assert_contains "$(in_sandbox journalctl -u "$DEMO_UNIT" -o cat --no-pager)" "status=6/ABRT"
}

check_demo_archive_from_another_build_is_discarded() {
    demo_restart_fresh
    demo_open_modal "old build $$"
    demo_call Background >/dev/null
    # The manager's environment is undone however this check ends (a failed assert, the runner's timeout).
    trap 'in_sandbox systemctl unset-environment CHECKIN_DEMO_BUILD || true' EXIT
    in_sandbox systemctl set-environment CHECKIN_DEMO_BUILD=2
    demo_kill_and_wait KILL
    assert_eq discarded "$(demo_state .launch.outcome)" "launch.outcome (an archive of build 1 under build 2)"
    assert_eq build-mismatch "$(demo_state .launch.reason)" "launch.reason"
    assert_eq 2 "$(demo_state .buildNumber)" "buildNumber"
    in_sandbox systemctl unset-environment CHECKIN_DEMO_BUILD
    trap - EXIT
    demo_restart_fresh
    assert_eq 1 "$(demo_state .buildNumber)" "buildNumber after unsetting CHECKIN_DEMO_BUILD"
}

check_demo_input_is_root_only_and_checked() {
    demo_wait_ready
    local nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    expect_exit 1 in_sandbox "${nobody[@]}" busctl call "${DEMO_BUS[@]}" Tap s check-in
    assert_contains "$EXPECT_OUTPUT" "Access denied" "Tap by uid 65534"
    expect_exit 1 in_sandbox "${nobody[@]}" busctl call "${DEMO_BUS[@]}" TestHook s hang
    assert_contains "$EXPECT_OUTPUT" "Access denied" "TestHook by uid 65534"
    expect_exit 1 in_sandbox "${nobody[@]}" busctl call "${DEMO_BUS[@]}" State
    assert_contains "$EXPECT_OUTPUT" "Access denied" "State by uid 65534"
    expect_exit 0 in_sandbox "${nobody[@]}" busctl call "${DEMO_BUS[@]}" Ready
    # Bad input: InvalidArgs saying what is accepted.
    expect_exit 1 in_sandbox busctl call "${DEMO_BUS[@]}" Tap s teleport
    assert_contains "$EXPECT_OUTPUT" "accepted: tab:venues, tab:check-in" "Tap teleport"
    expect_exit 1 in_sandbox busctl call "${DEMO_BUS[@]}" Type ss colour red
    assert_contains "$EXPECT_OUTPUT" "accepted: venue, party-size, note" "Type colour"
    expect_exit 1 in_sandbox busctl call "${DEMO_BUS[@]}" TestHook s explode
    assert_contains "$EXPECT_OUTPUT" "accepted: hang, crash-next-restore" "TestHook explode"
    demo_wait_ready
}
