# The trust boundary, tried as a local attacker would (docs/SECURITY.md): uid 65534 with no groups
# reads nothing private, forges no signal an app believes, and stalls nobody; a burst of permission
# changes never leaves an app in a crash loop. Each check performs the attack and asserts it fails.

SEC_PERMISSIONS=(org.relaunch.Permissions1 /org/relaunch/Permissions1 org.relaunch.Permissions1)
# A member of the group relaunch, made in the sandbox's /etc (an overlay on a scratch tmpfs).
SEC_MEMBER=relaunch-tester

sec_nobody() {
    in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

sec_member() {
    in_sandbox id -u "$SEC_MEMBER" >/dev/null 2>&1 ||
        in_sandbox useradd --system --no-create-home --groups relaunch "$SEC_MEMBER" ||
        fail "could not add $SEC_MEMBER to the sandbox's /etc"
    in_sandbox setpriv --reuid="$SEC_MEMBER" --regid="$SEC_MEMBER" --init-groups "$@"
}

# sec_assert_denied WHAT: $EXPECT_OUTPUT is permissiond's or the app's refusal (not the bus policy's),
# and names the polkit action that would allow it.
sec_assert_denied() {
    assert_contains "$EXPECT_OUTPUT" "org.freedesktop.DBus.Error.AccessDenied" "$1"
    assert_contains "$EXPECT_OUTPUT" "$2" "$1 (the action that allows it)"
}

check_security_stranger_reads_no_permissions() {
    demo_wait_ready
    polkit_answers
    in_sandbox busctl call "${SEC_PERMISSIONS[@]}" Set sss checkin-demo camera allowed >/dev/null
    demo_wait_ready
    local method
    for method in "Get string:checkin-demo string:camera" "List string:checkin-demo" "LastKill string:checkin-demo" \
        "List string:banca-demo"; do
        # shellcheck disable=SC2086  # the method and its arguments are several words on purpose
        expect_exit 1 sec_nobody dbus-send --system --print-reply --dest=org.relaunch.Permissions1 \
            /org/relaunch/Permissions1 org.relaunch.Permissions1.$method
        sec_assert_denied "$method by uid 65534" org.relaunch.permissions.read
    done
    expect_exit 77 sec_nobody relaunchctl permission get checkin-demo camera
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.permissions.read" "relaunchctl permission get by uid 65534"
    expect_exit 77 sec_nobody relaunchctl permission list checkin-demo
    # Which apps are registered is no secret (apps.d is world-readable): ListApps stays open.
    expect_exit 0 sec_nobody busctl call "${SEC_PERMISSIONS[@]}" ListApps
    assert_contains "$EXPECT_OUTPUT" '"checkin-demo"' "ListApps by uid 65534"
    # Root and a member of the group relaunch (polkit's org.relaunch.permissions.read) read any app.
    expect_exit 0 in_sandbox relaunchctl permission get checkin-demo camera
    assert_eq allowed "$EXPECT_OUTPUT" "Get by root"
    expect_exit 0 sec_member relaunchctl permission get checkin-demo camera
    assert_eq allowed "$EXPECT_OUTPUT" "Get by a member of relaunch"
    expect_exit 0 sec_member relaunchctl permission list banca-demo
}

check_security_app_reads_only_its_own_permissions() {
    demo_wait_ready
    polkit_answers
    # The app reads its own permissions at launch (as the app, not root): its state shows the store's.
    in_sandbox busctl call "${SEC_PERMISSIONS[@]}" Set sss checkin-demo camera denied >/dev/null
    wait_until 120 sec_state_is org.relaunch.CheckInDemo1 .permissions.camera denied
    demo_wait_ready
    # A process in an app's registered unit reads that app's permissions, and no other app's.
    local unit=relaunch-probe.service
    in_sandbox mkdir -p /run/relaunch/apps.d
    printf '[App]\nUnit=%s\nPermissions=camera\n' "$unit" | in_sandbox tee /run/relaunch/apps.d/probe.conf >/dev/null
    in_sandbox systemctl reload permissiond.service
    wait_until 120 sh -c "'$SANDBOX' exec -- busctl call ${SEC_PERMISSIONS[*]} ListApps | grep -q '\"probe\"'"
    local rc=0
    ( expect_exit 0 in_sandbox systemd-run --unit="$unit" --pipe --wait --quiet -p DefaultDependencies=no \
          -p User=relaunch-banca busctl call "${SEC_PERMISSIONS[@]}" Get ss probe camera
      assert_eq '"not-determined"' "${EXPECT_OUTPUT#s }" "the probe app reading its own camera"
      expect_exit 1 in_sandbox systemd-run --unit="$unit" --pipe --wait --quiet -p DefaultDependencies=no \
          -p User=relaunch-banca dbus-send --system --print-reply --dest=org.relaunch.Permissions1 \
          /org/relaunch/Permissions1 org.relaunch.Permissions1.Get string:checkin-demo string:camera
      sec_assert_denied "the probe app reading checkin-demo" org.relaunch.permissions.read ) || rc=$?
    in_sandbox rm -f /run/relaunch/apps.d/probe.conf
    in_sandbox systemctl reload permissiond.service
    [[ $rc -eq 0 ]] || fail "an app's reads were not limited to its own permissions"
}

check_security_stranger_reads_no_app_screen_or_state() {
    demo_restart_fresh
    polkit_answers
    demo_open_modal "my secret note $$"
    local method
    for method in State Screen Elements; do
        expect_exit 1 sec_nobody dbus-send --system --print-reply --dest=org.relaunch.CheckInDemo1 /org/relaunch/App1 \
            "org.relaunch.App1.$method"
        sec_assert_denied "$method by uid 65534" org.relaunch.app.drive
        assert_not_contains "$EXPECT_OUTPUT" "my secret note" "$method by uid 65534"
    done
    expect_exit 77 sec_nobody relaunchctl app state --json
    assert_not_contains "$EXPECT_OUTPUT" "my secret note" "relaunchctl app state by uid 65534"
    expect_exit 0 sec_nobody busctl call "${DEMO_BUS[@]}" Ready
    expect_exit 0 sec_member relaunchctl app state --json
    assert_contains "$EXPECT_OUTPUT" "my secret note $$" "relaunchctl app state by a member of relaunch"
    demo_restart_fresh
}

# sec_app_state BUSNAME JQ-FILTER: an app's state JSON through its App1, as root.
sec_app_state() {
    in_sandbox busctl --json=short call --timeout=10 "$1" /org/relaunch/App1 org.relaunch.App1 State |
        jq -r '.data[0]' | jq -r "$2"
}

# sec_state_is BUSNAME JQ-FILTER VALUE: true when the app's state shows VALUE there.
sec_state_is() {
    [[ "$(sec_app_state "$1" "$2")" == "$3" ]]
}

check_security_forged_changed_signal_changes_nothing() {
    # countries-demo follows location live (a location change does not kill under the ios policy),
    # so a Changed it believed would show in its state at once.
    local unit=countries-demo.service bus=org.relaunch.CountriesDemo1
    in_sandbox systemctl start "$unit"
    in_sandbox busctl call "${SEC_PERMISSIONS[@]}" Reset ss countries-demo location >/dev/null
    wait_until 120 sec_state_is "$bus" .permissions.location not-determined
    local invocation since
    invocation=$(unit_prop "$unit" InvocationID)
    since=$(in_sandbox date '+%Y-%m-%d %H:%M:%S.%N' | cut -c1-26)
    # Broadcast, and sent to the app's connection alone (which no match rule filters).
    expect_exit 0 sec_nobody busctl emit /org/relaunch/Permissions1 org.relaunch.Permissions1 Changed ssssb \
        countries-demo location not-determined allowed false
    expect_exit 0 sec_nobody busctl emit --destination="$bus" /org/relaunch/Permissions1 \
        org.relaunch.Permissions1 Changed ssssb countries-demo location not-determined allowed false
    # The app says so once per sender (each busctl is a sender of its own): both reached it.
    wait_until 120 sh -c "[ \$('$SANDBOX' exec -- journalctl --namespace='*' --no-pager -q -o cat _SYSTEMD_INVOCATION_ID=$invocation --since '$since' -g 'ignored a Changed signal' | wc -l) -ge 2 ]"
    assert_eq not-determined "$(sec_app_state "$bus" .permissions.location)" "the app's location after forged Changed signals"
    assert_eq not-determined "$(in_sandbox relaunchctl permission get countries-demo location)" "the store's location"
    # permissiond's own Changed still counts: the same change, made for real, shows at once.
    in_sandbox busctl call "${SEC_PERMISSIONS[@]}" Set sss countries-demo location allowed >/dev/null
    wait_until 120 sec_state_is "$bus" .permissions.location allowed
    assert_eq "$invocation" "$(unit_prop "$unit" InvocationID)" "countries-demo's instance (location does not kill)"
    in_sandbox busctl call "${SEC_PERMISSIONS[@]}" Reset ss countries-demo location >/dev/null
}

# polkit_answers: polkit is up (a refusal must come from a decision, not from polkit being down).
polkit_answers() {
    wait_until 120 polkit_is_up
}

# The stranger's side of an unanswered prompt: on a terminal of its own (script), a polkit agent for
# this very process (pkttyagent closes fd 5 once polkit registered it), then the interactive Set;
# exec keeps the pid the agent is for. The agent shows the prompt, and its answer never comes.
SEC_PROMPT_SCRIPT='#!/bin/sh
registered=$(pkttyagent --process $$ --notify-fd 5 5>&1 >/dev/null 2>&1 &)
echo "agent registered"
exec busctl --allow-interactive-authorization=yes --timeout=90 call org.relaunch.Permissions1 \
    /org/relaunch/Permissions1 org.relaunch.Permissions1 Set sss checkin-demo microphone allowed'

check_security_unanswered_prompt_stalls_nobody() {
    demo_wait_ready
    polkit_answers
    local dir=/run/relaunch-sec-prompt
    in_sandbox rm -rf "$dir"
    in_sandbox mkdir -m 0755 "$dir"
    printf '%s\n' "$SEC_PROMPT_SCRIPT" | in_sandbox tee "$dir/stranger" >/dev/null
    in_sandbox chmod 0755 "$dir/stranger"
    in_sandbox mkfifo -m 0600 "$dir/input"
    # The terminal's input is a FIFO that nobody writes: the password is never typed.
    in_sandbox setsid sh -c "exec 3<>$dir/input; setpriv --reuid=65534 --regid=65534 --clear-groups \
        script -qec $dir/stranger /dev/null <&3 >$dir/out 2>&1; echo \"exit \$?\" >>$dir/out" </dev/null >/dev/null 2>&1 &
    # polkit asked the agent: the prompt is on the stranger's terminal.
    wait_until 120 in_sandbox grep -q 'AUTHENTICATING FOR org.relaunch.permissions.set' "$dir/out"
    # Meanwhile everyone else is served: root's changes and the kills they make, reads, polkit for
    # others. The first change is answered while the prompt is still open (it ends only at its 25 s
    # bound; one Set takes a fraction of a second even on a loaded machine).
    local i state
    for i in 1 2 3 4; do
        state=$([[ $((i % 2)) -eq 1 ]] && echo allowed || echo denied)
        expect_exit 0 timeout 20 "$SANDBOX" exec -- busctl --timeout=15 call "${SEC_PERMISSIONS[@]}" Set sss checkin-demo camera "$state"
        if [[ $i -eq 1 ]] && in_sandbox grep -q '^exit' "$dir/out"; then
            fail "the stranger's call ended before another caller's Set was answered: $(in_sandbox cat "$dir/out")"
        fi
        demo_wait_ready
    done
    expect_exit 0 timeout 20 "$SANDBOX" exec -- busctl --timeout=15 call "${SEC_PERMISSIONS[@]}" Get ss checkin-demo camera
    assert_contains "$EXPECT_OUTPUT" '"denied"' "Get while a prompt is unanswered"
    expect_exit 1 timeout 20 "$SANDBOX" exec -- setpriv --reuid=65534 --regid=65534 --clear-groups \
        dbus-send --system --print-reply --dest=org.relaunch.Permissions1 /org/relaunch/Permissions1 \
        org.relaunch.Permissions1.Get string:checkin-demo string:camera
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.permissions.read" "another stranger's Get while a prompt is unanswered"
    # The stranger's call ends by itself (at polkit's bound for a prompt), refused, having changed nothing.
    wait_until 120 in_sandbox grep -q '^exit' "$dir/out"
    local said
    said=$(in_sandbox cat "$dir/out")
    assert_contains "$said" "Access denied" "the stranger's Set"
    assert_contains "$said" "exit 1" "the stranger's Set"
    assert_eq not-determined "$(in_sandbox relaunchctl permission get checkin-demo microphone)" "microphone after the refused Set"
    assert_eq active "$(unit_prop permissiond.service ActiveState)" "permissiond (no watchdog abort)"
    in_sandbox rm -rf "$dir"
    in_sandbox busctl call "${SEC_PERMISSIONS[@]}" Reset ss checkin-demo camera >/dev/null
    demo_wait_ready
}

# sec_ready_or_failed: checkin-demo is ready, or its unit failed.
sec_ready_or_failed() {
    [[ "$(unit_prop "$DEMO_UNIT" ActiveState)" == failed ]] || demo_ready
}

check_security_toggle_burst_never_crash_loops() {
    demo_restart_fresh
    demo_open_modal "through the burst $$"
    demo_call Background >/dev/null
    local since changes=60
    since=$(in_sandbox date '+%Y-%m-%d %H:%M:%S.%N' | cut -c1-26)
    # 60 changes of the camera 80 ms apart, as a user flipping the switch would make them (one
    # process inside the sandbox makes them all, so the pace is the switch's, not nsenter's).
    expect_exit 0 in_sandbox sh -c "for i in \$(seq 1 $changes); do
            if [ \$((i % 2)) -eq 1 ]; then state=allowed; else state=denied; fi
            busctl call ${SEC_PERMISSIONS[*]} Set sss checkin-demo camera \$state >/dev/null ||
                { echo \"Set \$i of $changes (\$state) failed\"; exit 1; }
            sleep 0.08
        done"
    # The app comes back ready, or its unit fails: whichever happens first ends the wait.
    wait_until 120 sec_ready_or_failed
    if [[ "$(unit_prop "$DEMO_UNIT" ActiveState)" == failed ]]; then
        fail "checkin-demo failed (Result=$(unit_prop "$DEMO_UNIT" Result), NRestarts=$(unit_prop "$DEMO_UNIT" NRestarts)) after a burst of permission changes; systemd said: $(in_sandbox journalctl --no-pager -q -u "$DEMO_UNIT" -g 'repeated too quickly' | tail -n 1)"
    fi
    assert_eq denied "$(demo_state .permissions.camera)" "the app's camera after the burst (the store's last state)"
    assert_eq denied "$(in_sandbox relaunchctl permission get checkin-demo camera)" "the store's camera after the burst"
    assert_eq "through the burst $$" "$(demo_state .modal.note)" "the restored modal's note after the burst"
    # Each killing change that found the app running killed it once: kills name distinct instances,
    # and there are as many as changes that say they killed.
    local kills killing distinct
    kills=$(in_sandbox journalctl --namespace='*' --no-pager -q -o json --since "$since" MESSAGE_ID=cec8a90c402d4067a74cf3669006da0e | jq -r .KILLED_INVOCATION_ID)
    killing=$(in_sandbox journalctl --namespace='*' --no-pager -q -o json --since "$since" MESSAGE_ID=9b3f5994e16840eb93c15d94fb1674bd | jq -r 'select(.KILL == "true") | .KILL' | wc -l)
    distinct=$(sort -u <<<"$kills" | grep -c . || true)
    assert_eq "$(grep -c . <<<"$kills")" "$distinct" "kills of distinct instances"
    assert_eq "$killing" "$distinct" "changes that killed vs kills"
    [[ $distinct -ge 2 ]] || fail "only $distinct kills for $changes changes"
    note "$changes changes 80 ms apart: $distinct kills, app active, start limit not hit"
    demo_restart_fresh
}
