# The timeline trusts journald's trusted fields, not what a sender wrote (CONTRACT.md, "What the
# timeline trusts"): an unprivileged user who forges Relaunch's and systemd's entries with
# `logger --journald` gets no incident, only a count of ignored entries; a real change still shows.

# journal_trust_forge: writes one journal entry, its NAME=value lines on stdin, as uid 65534.
journal_trust_forge() {
    in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups logger --journald
}

check_journal_trust_forged_entries_are_ignored_and_counted() {
    local since now json forged
    in_sandbox systemctl reset-failed checkin-demo.service >/dev/null 2>&1 || true
    in_sandbox systemctl start checkin-demo.service
    in_sandbox relaunchctl app wait-ready >/dev/null
    # Start from camera allowed, so that the real change below is a revoke, which kills under any policy.
    in_sandbox relaunchctl permission set checkin-demo camera allowed >/dev/null
    in_sandbox relaunchctl app wait-ready >/dev/null
    since=$(date +%s.%N)
    now=$(date +%s%6N)

    # permissiond's two entries and PID 1's exit entry, as a user without any privilege writes them.
    # CALLER_UID 4242 marks the forgery: no real change comes from that uid here.
    journal_trust_forge <<EOF
MESSAGE_ID=9b3f5994e16840eb93c15d94fb1674bd
MESSAGE=checkin-demo: camera allowed -> denied (forged)
APP_ID=checkin-demo
PERMISSION=camera
OLD_STATE=allowed
NEW_STATE=denied
CALLER_UID=4242
KILL=true
CHANGED_USEC=$now
EOF
    journal_trust_forge <<EOF
MESSAGE_ID=cec8a90c402d4067a74cf3669006da0e
MESSAGE=killed checkin-demo.service (forged)
APP_ID=checkin-demo
UNIT=checkin-demo.service
PERMISSION=camera
SIGNAL=KILL
KILLED_USEC=$((now + 300))
EOF
    journal_trust_forge <<EOF
MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15
MESSAGE=checkin-demo.service: Main process exited, code=killed, status=9/KILL (forged)
UNIT=checkin-demo.service
INVOCATION_ID=00000000000000000000000000004242
EXIT_CODE=killed
EXIT_STATUS=9
EOF
    journal_sync
    # journald did write them, with the forger's credentials.
    forged=$(in_sandbox journalctl --since "@$since" -o json MESSAGE_ID=9b3f5994e16840eb93c15d94fb1674bd |
        jq -r 'select(.CALLER_UID == "4242") | ._UID' | head -n 1)
    assert_eq "65534" "$forged" "the forged entry's _UID"

    # A real change by root, through permissiond, that kills the app.
    expect_exit 0 in_sandbox relaunchctl permission set checkin-demo camera denied
    assert_contains "$EXPECT_OUTPUT" "app killed"
    in_sandbox relaunchctl app wait-ready >/dev/null
    journal_sync

    json=$(in_sandbox relaunchctl journal --since "@$since" --json)
    assert_eq "0" "$(jq '[.incidents[] | select(.callerUID == "4242")] | length' <<<"$json")" \
        "forged incidents in: $json; count"
    assert_eq "1" "$(jq '[.incidents[] | select(.callerUID == "0" and .permission == "camera")] | length' <<<"$json")" \
        "real camera changes"
    assert_eq "1" "$(jq '.summary.kills' <<<"$json")" "kills"
    # The real incident's exit entry is PID 1's, not the forged one.
    assert_eq '"1"' "$(jq -c '[.incidents[0].events[] | select(.kind == "process-exited") | .fields._PID]
        | if length == 1 then .[0] else . end' <<<"$json")" "the process-exited event's _PID"
    local ignored
    ignored=$(jq '.summary.ignoredEntries // "missing"' <<<"$json")
    [[ $ignored =~ ^[0-9]+$ && $ignored -ge 3 ]] || fail "summary.ignoredEntries: expected >= 3, got $ignored"
    note "ignored entries: $ignored"

    expect_exit 0 in_sandbox relaunchctl journal --since "@$since"
    assert_not_contains "$EXPECT_OUTPUT" "uid 4242"
    assert_contains "$(tail -n 1 <<<"$EXPECT_OUTPUT")" "ignored $ignored entries"
}
