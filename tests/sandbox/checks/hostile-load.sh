# Revocation under hostile load (CONTRACT.md "Revocation cannot be starved", docs/SECURITY.md): local
# users with no rights keep thousands of calls waiting on permissiond and on an app (tests/sandbox/flood,
# several users, many connections each, and unanswered polkit prompts), and still every revocation by
# root commits, kills the app and is answered, the app comes back restored, the app's own reads and
# root's are answered, and a member of relaunch still drives the app. Each check performs the attack.

HL_FLOOD=$REPO/tests/sandbox/flood
# Two users with no rights, made in the sandbox's /etc (an overlay on a scratch tmpfs).
HL_USERS=(relaunch-flood-a relaunch-flood-b)
HL_PERMISSIONS=(org.relaunch.Permissions1 /org/relaunch/Permissions1 org.relaunch.Permissions1)
HL_FLOODS=()

hl_users() {
    local user
    for user in "${HL_USERS[@]}"; do
        in_sandbox id -u "$user" >/dev/null 2>&1 || in_sandbox useradd --system --no-create-home "$user" ||
            fail "could not add $user to the sandbox's /etc"
    done
    chmod 0777 "$CHECK_TMP"  # the floods write their counts here, as their own users
}

# hl_flood NAME USER FLOOD-ARGS...: starts tests/sandbox/flood as USER (no groups) in the background and
# returns once every one of its connections has its calls on their way. It stops by itself after 300 s;
# hl_stop_floods ends it sooner and leaves its counts in $CHECK_TMP/NAME.stats.
hl_flood() {
    local name=$1 user=$2
    shift 2
    rm -f "$CHECK_TMP/$name.ready" "$CHECK_TMP/$name.stats"
    in_sandbox setpriv --reuid="$user" --regid="$user" --clear-groups "$HL_FLOOD" --seconds 300 \
        --ready "$CHECK_TMP/$name.ready" --stats "$CHECK_TMP/$name.stats" "$@" >"$CHECK_TMP/$name.log" 2>&1 &
    HL_FLOODS+=("$name")
    wait_until 120 hl_flood_ready "$name"
}

hl_flood_ready() {
    [[ -s "$CHECK_TMP/$1.ready" ]] && { cat "$CHECK_TMP/$1.ready"; return 0; }
    echo "flood $1 not on its way yet; it said: $(tail -n 3 "$CHECK_TMP/$1.log" 2>/dev/null)"
    return 1
}

# hl_stop_floods: ends every flood (SIGTERM: each writes its counts) and waits for their counts.
hl_stop_floods() {
    in_sandbox pkill -TERM -f "$HL_FLOOD" >/dev/null 2>&1 || true
    local name
    for name in "${HL_FLOODS[@]}"; do
        wait_until 60 test -s "$CHECK_TMP/$name.stats"
    done
    wait
}

# hl_flooded NAME CONNECTIONS [held]: the flood really pressed: it had CONNECTIONS connections and was
# answered (refused) more often than it had calls waiting at once, i.e. it sent again and again; with
# "held", its calls (prompts nobody answers) were still waiting when it stopped, none answered.
hl_flooded() {
    local stats sent
    stats=$(cat "$CHECK_TMP/$1.stats")
    note "flood $1: $(tr '\n' ' ' <<<"$stats")"
    assert_contains "$stats" "connections $2" "flood $1's connections"
    sent=$(awk '$1 == "sent" { print $2 }' <<<"$stats")
    if [[ ${3:-} == held-or-pressed ]] && ! grep -q answered <<<"$stats" && ((sent == $2 * 16)); then
        note "flood $1: every call still waiting when it stopped"
    elif [[ ${3:-} == held ]]; then
        assert_eq "$2" "$sent" "flood $1's calls (each held by its unanswered prompt)"
        assert_not_contains "$stats" "answered" "flood $1 (a prompt nobody answers grants nothing)"
    else
        ((sent > $2)) || fail "flood $1 sent $sent calls on $2 connections: it never pressed"
    fi
}

# hl_flood_everything: 130 unanswered authentication prompts (a polkit agent of the flood's own that never
# answers; first, while polkit still has time to register it), then 2 users x 100 connections x 16 calls
# waiting on permissiond's Get.
hl_flood_everything() {
    hl_users
    polkit_answers
    hl_flood prompts "${HL_USERS[1]}" --agent --connections 130 --pending 1 permissions-get checkin-demo camera
    hl_flood get-a "${HL_USERS[0]}" --connections 100 --pending 16 permissions-get checkin-demo camera
    hl_flood get-b "${HL_USERS[1]}" --connections 100 --pending 16 permissions-get checkin-demo camera
}

check_hostile_load_revocation_is_never_starved() {
    trap hl_stop_floods EXIT
    in_sandbox relaunchctl permission set checkin-demo camera allowed >/dev/null
    demo_restart_fresh  # a known start, whatever checks before left on the screen
    demo_open_modal "flooded"
    demo_call Background >/dev/null
    hl_flood_everything
    local i state out started times=() invocation invocations=()
    for i in $(seq 10); do
        for state in denied allowed; do
            # --wait: returns once the killed app is back, and says how it came back.
            invocation=$(unit_prop "$DEMO_UNIT" InvocationID)
            invocations+=("$invocation")
            started=$(date +%s%N)
            expect_exit 0 timeout 120 "$SANDBOX" exec -- relaunchctl permission set checkin-demo camera "$state" --wait --timeout 60
            times+=($((($(date +%s%N) - started) / 1000000)))
            out=$EXPECT_OUTPUT
            assert_contains "$out" "camera: " "revocation $i ($state) under the flood"
            assert_contains "$out" "(app killed; systemd relaunched it)" "revocation $i ($state): the kill"
            assert_contains "$out" "relaunched: restored" "revocation $i ($state): how the app came back"
            [[ "$(unit_prop "$DEMO_UNIT" InvocationID)" != "$invocation" ]] ||
                fail "revocation $i ($state): the app runs in the same invocation ($invocation): not relaunched"
            demo_call Background >/dev/null  # the next change finds it in the background again, as the user left it
        done
    done
    note "each revocation or grant with --wait, ms (set to restored, plus the sandbox's exec): ${times[*]}"
    # One relaunch per change: 20 invocations, each new. (Not NRestarts: permissiond resets the unit's
    # failure state, and with it that count, once its kills fill half the start limit.)
    invocations+=("$(unit_prop "$DEMO_UNIT" InvocationID)")
    assert_eq 21 "$(printf '%s\n' "${invocations[@]}" | sort -u | grep -c .)" "the app's invocations: one new per change"
    assert_eq "flooded" "$(demo_state .modal.note)" "the note typed before the flood, after 20 kills"
    hl_stop_floods
    trap - EXIT
    hl_flooded get-a 100
    hl_flooded get-b 100
    hl_flooded prompts 130 held
}

check_hostile_load_reads_are_answered() {
    trap hl_stop_floods EXIT
    demo_wait_ready
    in_sandbox relaunchctl permission set checkin-demo camera denied >/dev/null
    demo_wait_ready
    hl_flood_everything
    # The app's first lookup (who is this caller? its unit?) lands in the flood: it is relaunched now,
    # reads its own permissions as itself at launch, and must see the store's.
    in_sandbox systemctl restart "$DEMO_UNIT"
    demo_wait_ready
    wait_until 60 sec_state_is org.relaunch.CheckInDemo1 .permissions.camera denied
    expect_exit 0 in_sandbox busctl call "${HL_PERMISSIONS[@]}" Get ss checkin-demo camera
    assert_eq 's "denied"' "$EXPECT_OUTPUT" "root's Get under the flood"
    # A member of relaunch reads through polkit: its checks have places of their own.
    expect_exit 0 sec_member relaunchctl permission get checkin-demo camera
    assert_eq denied "$EXPECT_OUTPUT" "a member's Get under the flood"
    # The flooder itself, on one more connection, gets nothing: it waits its turn behind its own flood
    # (on a slow machine longer than it waits for a reply) and is then refused.
    expect_exit 1 in_sandbox setpriv --reuid="${HL_USERS[0]}" --regid="${HL_USERS[0]}" --clear-groups \
        dbus-send --system --print-reply --reply-timeout=5000 --dest=org.relaunch.Permissions1 /org/relaunch/Permissions1 \
        org.relaunch.Permissions1.Get string:checkin-demo string:camera
    [[ "$EXPECT_OUTPUT" == *org.freedesktop.DBus.Error.AccessDenied* || "$EXPECT_OUTPUT" == *org.freedesktop.DBus.Error.NoReply* ]] ||
        fail "the flooder's own Get: expected AccessDenied or no reply within 5 s, got: $EXPECT_OUTPUT"
    hl_stop_floods
    trap - EXIT
    hl_flooded get-a 100
    # The second user's calls wait behind its own unanswered prompts: held, not refused in a spin.
    hl_flooded get-b 100 held-or-pressed
}

check_hostile_load_app_drive_survives_strangers() {
    trap hl_stop_floods EXIT
    demo_wait_ready
    hl_users
    polkit_answers
    # Strangers ask the app itself for its state (each call needs polkit's word), hundreds at once.
    hl_flood app-a "${HL_USERS[0]}" --connections 100 --pending 16 app-state org.relaunch.CheckInDemo1
    hl_flood app-b "${HL_USERS[1]}" --connections 100 --pending 16 app-state org.relaunch.CheckInDemo1
    local i
    for i in 1 2 3; do
        expect_exit 0 sec_member relaunchctl app --app checkin-demo state --json
        assert_contains "$EXPECT_OUTPUT" '"lifecycle"' "a member's app state under the flood ($i)"
    done
    expect_exit 0 sec_member relaunchctl app --app checkin-demo screen
    expect_exit 0 in_sandbox relaunchctl app --app checkin-demo state --json
    demo_wait_ready
    hl_stop_floods
    trap - EXIT
    hl_flooded app-a 100
    hl_flooded app-b 100
}
