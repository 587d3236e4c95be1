# notes-demo, the scene-based app, driven through relaunchctl's scene commands: two windows, each
# edited through `--scene ID`, the second with the attachment picker up, then the app in the
# background and a photos change (ios policy: permissiond kills it). systemd relaunches it and both
# windows come back with the same session ids, their text and the picker where it was. Then an
# unknown session id and --scene on an app that is not scene-based are refused in one line, with the
# contract's exit codes.

NOTES_APP=notes-demo
NOTES_UNIT=notes-demo.service

# notes_ctl ARG...: relaunchctl app --app notes-demo ARG..., inside the sandbox.
notes_ctl() {
    in_sandbox relaunchctl app --app "$NOTES_APP" "$@"
}

# notes_fresh: notes-demo stopped, its saved state and notes gone, photos reset, started again.
notes_fresh() {
    in_sandbox systemctl stop "$NOTES_UNIT"
    in_sandbox rm -f /var/lib/notes-demo/restoration.archive /var/lib/notes-demo/app.data
    in_sandbox relaunchctl permission reset "$NOTES_APP" >/dev/null
    in_sandbox systemctl start "$NOTES_UNIT"
    notes_ctl wait-ready --timeout 60 >/dev/null
}

check_notes_demo_brings_back_two_windows_after_a_photos_kill() {
    command -v jq >/dev/null || fail "jq is missing on the host"
    notes_fresh
    local first second sessions
    first=$(notes_ctl scenes --json | jq -r '.[0].session')
    [[ -n "$first" && "$first" != null ]] || fail "notes-demo opened no first window: $(notes_ctl scenes)"
    second=$(notes_ctl scene open)
    [[ "$second" =~ ^[0-9A-F-]{36}$ ]] || fail "scene open printed '$second', not a session id"
    sessions=$(notes_ctl scenes --json | jq -r '[.[].session] | join(" ")')
    assert_eq "$first $second" "$sessions" "the open windows, in the order they were opened"

    expect_exit 0 notes_ctl --scene "$first" type title Shopping
    expect_exit 0 notes_ctl --scene "$first" type body "Milk and eggs"
    expect_exit 0 notes_ctl --scene "$second" type title Trip
    expect_exit 0 notes_ctl type body "Harbour at noon" --scene "$second"
    expect_exit 0 notes_ctl --scene "$second" tap attach
    assert_contains "$(notes_ctl --scene "$second" screen)" "Photos access is not-determined" "window 2's screen"
    assert_contains "$(notes_ctl --scene "$first" elements)" "cursor-left" "window 1's elements (no picker there)"
    notes_ctl background

    local invocation
    invocation=$(unit_prop "$NOTES_UNIT" InvocationID)
    expect_exit 0 in_sandbox relaunchctl permission set "$NOTES_APP" photos allowed
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $NOTES_UNIT)\" != '$invocation' ]"
    notes_ctl wait-ready --timeout 60 >/dev/null

    local state
    state=$(notes_ctl state --json)
    assert_eq "$first $second" "$(jq -r '[.scenes[].session] | join(" ")' <<<"$state")" "the sessions after the relaunch"
    assert_eq "Shopping|Milk and eggs" "$(jq -r '.scenes[0] | "\(.title)|\(.body)"' <<<"$state")" "window 1 after the relaunch"
    assert_eq "Trip|Harbour at noon" "$(jq -r '.scenes[1] | "\(.title)|\(.body)"' <<<"$state")" "window 2 after the relaunch"
    assert_eq "NoteViewController/AttachmentPickerNavigationController" "$(jq -r '.scenes[1].presented' <<<"$state")" \
        "window 2's picker after the relaunch"
    assert_eq photos "$(jq -r '.lastExit.permission' <<<"$state")" "what killed the last instance"
    assert_contains "$(notes_ctl scenes)" "Trip" "relaunchctl app scenes after the relaunch"
    assert_contains "$(notes_ctl --scene "$second" screen)" "tap photo:harbour.jpg" "window 2's picker now offers photos"

    # Closing a window takes its saved state with it: a kill brings back only the other one.
    expect_exit 0 notes_ctl scene close "$first"
    notes_ctl background
    invocation=$(unit_prop "$NOTES_UNIT" InvocationID)
    in_sandbox systemctl kill --signal=KILL --kill-whom=main "$NOTES_UNIT"
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $NOTES_UNIT)\" != '$invocation' ]"
    notes_ctl wait-ready --timeout 60 >/dev/null
    assert_eq "$second" "$(notes_ctl scenes --json | jq -r '[.[].session] | join(" ")')" "the windows after closing one and a kill"
}

check_scene_commands_refuse_bad_input_in_one_line() {
    notes_ctl wait-ready --timeout 60 >/dev/null
    expect_exit 2 notes_ctl --scene no-such-session tap attach
    assert_contains "$EXPECT_OUTPUT" "no open scene has the session 'no-such-session'" "an unknown session"
    assert_eq 1 "$(wc -l <<<"$EXPECT_OUTPUT")" "lines of the refusal"
    expect_exit 2 notes_ctl scene close no-such-session
    expect_exit 2 notes_ctl --scene x background
    assert_contains "$EXPECT_OUTPUT" "acts on the whole app" "--scene on background"
    # checkin-demo has one window and no scenes.
    expect_exit 1 in_sandbox relaunchctl app --app checkin-demo scenes
    assert_contains "$EXPECT_OUTPUT" "not scene-based" "scenes of checkin-demo"
    assert_eq 1 "$(wc -l <<<"$EXPECT_OUTPUT")" "lines of the refusal"
}
