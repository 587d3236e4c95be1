# Any systemd service can be a Relaunch app: notes-py (tests/apps/notes-py), a few lines of Python,
# registered at run time through /run/relaunch/apps.d. A revoke kills it and systemd relaunches it
# with the new state; a grant (its registration says KillPolicy=android) reaches it as Changed; the
# timeline shows the incident under its app id. Uses pd-helpers.sh's names.

ANY_APP=notes-py
ANY_UNIT=notes-py.service

# any_install: the app's files where a host would have them (/run, as an operator testing an app
# would), then systemd and permissiond told.
any_install() {
    local dir=/run/relaunch-apps/notes-py
    in_sandbox sh -c "mkdir -p $dir /run/systemd/system /run/relaunch/apps.d &&
        install -m 0755 '$REPO/tests/apps/notes-py/notes-py' $dir/notes-py &&
        sed 's|@APP_DIR@|$dir|' '$REPO/tests/apps/notes-py/notes-py.service' >/run/systemd/system/$ANY_UNIT &&
        install -m 0644 '$REPO/tests/apps/notes-py/notes-py.conf' /run/relaunch/apps.d/$ANY_APP.conf"
    in_sandbox systemctl daemon-reload
    in_sandbox systemctl reload permissiond.service
    wait_until 60 sh -c "'$SANDBOX' exec -- busctl call $PD_DEST $PD_PATH $PD_IFACE ListApps | grep -q '\"$ANY_APP\"'"
}

any_remove() {
    in_sandbox systemctl stop "$ANY_UNIT" || true
    in_sandbox rm -rf /run/relaunch-apps/notes-py "/run/systemd/system/$ANY_UNIT" "/run/relaunch/apps.d/$ANY_APP.conf"
    in_sandbox systemctl daemon-reload
    in_sandbox systemctl reload permissiond.service
}

# any_said INVOCATION TEXT: the instance INVOCATION printed TEXT (its stdout goes to the journal).
any_said() {
    in_sandbox journalctl --namespace='*' --no-pager -o cat _SYSTEMD_INVOCATION_ID="$1" | grep -qF "$2"
}

check_a_python_app_is_killed_relaunched_and_follows_changes() {
    command -v jq >/dev/null || fail "jq is missing on the host"
    in_sandbox /usr/bin/python3 -c 'import dbus, gi' || fail "python3-dbus and python3-gi are needed (apt-get install -y python3-dbus python3-gi)"
    trap any_remove EXIT
    any_install
    in_sandbox relaunchctl permission set "$ANY_APP" microphone denied >/dev/null
    in_sandbox systemctl restart "$ANY_UNIT"
    local first since
    first=$(unit_prop "$ANY_UNIT" InvocationID)
    wait_until 60 any_said "$first" "launched: microphone is denied"
    since=$(in_sandbox date +%s)

    # A grant under its android policy: no kill, the running instance follows Changed.
    expect_exit 0 in_sandbox relaunchctl permission set "$ANY_APP" microphone allowed
    wait_until 60 any_said "$first" "microphone changed from denied to allowed"
    assert_eq "$first" "$(unit_prop "$ANY_UNIT" InvocationID)" "the instance after a grant"

    # A revoke kills it; systemd relaunches it; the new instance reads the new state.
    expect_exit 0 in_sandbox relaunchctl permission set "$ANY_APP" microphone denied
    assert_contains "$EXPECT_OUTPUT" "app killed" "relaunchctl's answer to the revoke"
    wait_until 60 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P InvocationID $ANY_UNIT)\" != '$first' ]"
    local second
    second=$(unit_prop "$ANY_UNIT" InvocationID)
    wait_until 60 any_said "$second" "launched: microphone is denied"

    # The timeline has the incident under its app id, with the kill and the relaunch.
    local timeline
    timeline=$(in_sandbox relaunchctl journal --since "@$since" --app "$ANY_APP")
    assert_contains "$timeline" "$ANY_APP  microphone allowed → denied" "the timeline"
    assert_contains "$timeline" "SIGKILL to $ANY_UNIT" "the timeline"
    assert_contains "$timeline" "Started $ANY_UNIT" "the timeline"
    # --app keeps to one app: checkin-demo changed nothing meanwhile.
    assert_contains "$(in_sandbox relaunchctl journal --since "@$since" --app checkin-demo)" \
        "no permission changes in the journal for checkin-demo" "the timeline of another app"
    trap - EXIT
    any_remove
}
