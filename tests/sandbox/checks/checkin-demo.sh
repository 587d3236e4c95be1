# checkin-demo's helpers for the bash checks not yet ported (driven with busctl on org.relaunch.CheckInDemo1,
# read back with busctl and journalctl -o json); Tests/SandboxCheckTests/AppChecksSupport.swift has them
# in Swift. The app's behaviour under its unit (READY only once restored, SIGKILL / watchdog / crash
# relaunches, the fd store copy, another build's archive, the contract's journal events) is checked in
# Swift on RelaunchTesting: Tests/AppBehaviourTests, run inside the sandbox by tests/toggle/run; who may
# drive the app and what input it takes: Tests/SandboxCheckTests/CheckInDemoChecks.swift. Needs jq on the host.

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
    in_sandbox journalctl --namespace='*' --no-pager -o json "_SYSTEMD_INVOCATION_ID=$1" "MESSAGE_ID=$2"
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
