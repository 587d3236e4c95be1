# relaunchctl against the real daemon and app: exit codes, one-line errors, and the timeline.
# (The toggle scenarios themselves run separately: scripts/test plays scenarios/*.scenario.)

nobody() { in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# fresh_app: the app launched fresh (no saved state, every permission not-determined), whatever
# earlier checks left on screen or in permissiond.
fresh_app() {
    in_sandbox relaunchctl app quit --force >/dev/null 2>&1 || true
    in_sandbox systemctl stop checkin-demo.service
    in_sandbox relaunchctl permission reset checkin-demo >/dev/null
    in_sandbox systemctl reset-failed checkin-demo.service >/dev/null 2>&1 || true
    in_sandbox systemctl start checkin-demo.service
    in_sandbox relaunchctl app wait-ready >/dev/null
}

check_relaunchctl_non_root_set_is_refused_with_77() {
    local before
    before=$(in_sandbox relaunchctl permission get checkin-demo microphone)
    expect_exit 77 nobody relaunchctl permission set checkin-demo microphone denied
    assert_contains "$EXPECT_OUTPUT" "not authorized"
    [[ $(wc -l <<<"$EXPECT_OUTPUT") -eq 1 ]] || fail "expected one line, got: $EXPECT_OUTPUT"
    assert_eq "$before" "$(in_sandbox relaunchctl permission get checkin-demo microphone)"
    expect_exit 77 nobody relaunchctl permission reset checkin-demo
    expect_exit 77 nobody relaunchctl app tap tab:venues
    # Reading is private too: 77, naming what would allow it.
    expect_exit 77 nobody relaunchctl permission list checkin-demo
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.permissions.read"
    expect_exit 77 nobody relaunchctl app state --json
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.app.drive"
}

check_relaunchctl_bad_names_exit_2() {
    expect_exit 2 in_sandbox relaunchctl permission set checkin-demo torch allowed
    assert_contains "$EXPECT_OUTPUT" "accepted: camera, microphone, photos, contacts, calendars, location"
    expect_exit 2 in_sandbox relaunchctl permission set checkin-demo camera sometimes
    assert_contains "$EXPECT_OUTPUT" "accepted: allowed, denied, not-determined"
    expect_exit 2 in_sandbox relaunchctl app tap teleport
    assert_contains "$EXPECT_OUTPUT" "teleport"
    expect_exit 2 in_sandbox relaunchctl app type party-size lots
}

check_relaunchctl_unreachable_app_exits_69() {
    # The app runs again however this check ends.
    trap "'$SANDBOX' exec -- systemctl start checkin-demo.service || true" EXIT
    in_sandbox systemctl stop checkin-demo.service
    expect_exit 69 in_sandbox relaunchctl app screen
    assert_contains "$EXPECT_OUTPUT" "checkin-demo"
    # A stopped app never becomes ready: the short bound is not a race, whatever the speed.
    expect_exit 69 in_sandbox relaunchctl app wait-ready --timeout 0.5
    in_sandbox systemctl start checkin-demo.service
    trap - EXIT
    expect_exit 0 in_sandbox relaunchctl app wait-ready
}

check_relaunchctl_set_kills_and_the_timeline_shows_the_relaunch() {
    local since json
    fresh_app
    in_sandbox relaunchctl app tap tab:check-in
    in_sandbox relaunchctl app tap check-in
    in_sandbox relaunchctl app type note "timeline check"
    in_sandbox relaunchctl app background
    since=$(date +%s.%N)
    expect_exit 0 in_sandbox relaunchctl permission set checkin-demo contacts allowed
    assert_contains "$EXPECT_OUTPUT" "app killed"
    in_sandbox relaunchctl app wait-ready >/dev/null
    journal_sync
    json=$(in_sandbox relaunchctl journal --since "@$since" --json)
    assert_eq "1" "$(jq '.summary.kills' <<<"$json")"
    assert_eq "1" "$(jq '.summary.restores' <<<"$json")"
    assert_eq '"permission-changed","kill-sent","process-exited"' \
        "$(jq -c '[.incidents[0].events[].kind][0:3]' <<<"$json" | tr -d '[]')"
    assert_eq "appDelegate" "$(jq -r '[.incidents[0].events[] | select(.kind == "controller-restored")
        | select(.fields.RESTORATION_PATH | endswith("CheckInModalNavigationController"))][0].fields.RESTORED_VIA' <<<"$json")"
    expect_exit 0 in_sandbox relaunchctl journal --since "@$since"
    assert_contains "$EXPECT_OUTPUT" "summary: 1 incident, 1 kill, 1 restore"
    assert_contains "$EXPECT_OUTPUT" "via appDelegate"
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

# A permission change while the relaunched app is still restoring (it holds the restoring mark)
# kills that instance too; the next launch must see that permissiond killed it, not that it crashed,
# and restore the modal instead of discarding it as crashed-during-restore.
check_relaunchctl_kill_during_restore_is_not_a_crash() {
    local since
    # Whatever happens, leave no stalled instance or armed hook to the checks after this one.
    trap "'$SANDBOX' exec -- rm -f /var/lib/checkin-demo/stall-next-restore; '$SANDBOX' exec -- systemctl restart checkin-demo.service" EXIT
    fresh_app
    in_sandbox relaunchctl app tap tab:check-in
    in_sandbox relaunchctl app tap check-in
    in_sandbox relaunchctl app type note "kept through two kills"
    in_sandbox relaunchctl app background
    in_sandbox busctl call org.relaunch.CheckInDemo1 /org/relaunch/App1 org.relaunch.App1 \
        TestHook s stall-next-restore
    since=$(date +%s.%N)
    in_sandbox relaunchctl permission set checkin-demo camera allowed >/dev/null
    # The relaunched instance stalls right after setting the mark; wait for its line in the journal.
    wait_until 60 sh -c "'$SANDBOX' exec -- journalctl --namespace='*' -u checkin-demo --since @$since -o cat | grep -q 'stalling while restoring'"
    expect_exit 0 in_sandbox relaunchctl permission set checkin-demo camera denied
    assert_contains "$EXPECT_OUTPUT" "app killed"
    in_sandbox relaunchctl app wait-ready >/dev/null
    assert_eq "restored" "$(in_sandbox relaunchctl app state --json | jq -r .launch.outcome)"
    assert_eq "kept through two kills" "$(in_sandbox relaunchctl app state --json | jq -r .modal.note)"
    journal_sync
    assert_eq "0" "$(in_sandbox journalctl --namespace='*' --since "@$since" -o cat MESSAGE_ID=f90884042ed34e8e85a00a87182d6b03 | wc -l)"
    # The restore came back because the mark was forgiven, not because no mark was left: the stalled
    # instance was the one killed, and the next launch says so.
    assert_eq "1" "$(in_sandbox journalctl --namespace='*' --since "@$since" -u checkin-demo.service -o cat \
        | grep -c 'the last restore was killed for a permission change, not crashed; restoring again')"
}

check_relaunchctl_quit_returns_once_the_app_is_gone() {
    # The app answers Quit before it exits; linger-on-quit makes it stay 2 s after answering, so the
    # race with a start that follows at once always happens. quit must wait for the exit: a start on a
    # unit that is still active does nothing, and the app would then exit with nobody to start it.
    demo_wait_ready
    demo_call TestHook s linger-on-quit >/dev/null
    expect_exit 0 in_sandbox relaunchctl app --app checkin-demo quit --force
    assert_eq inactive "$(unit_prop "$DEMO_UNIT" ActiveState)" "the unit as soon as quit returned"
    in_sandbox systemctl start "$DEMO_UNIT"
    demo_wait_ready
    assert_eq fresh "$(demo_state .launch.outcome)" "the launch after a force quit"
}
