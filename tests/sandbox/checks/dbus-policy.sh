# The D-Bus policies of systemd/dbus/: who may own the names and who may call what.

as_nobody() {
    in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# The bus policy lets anyone reach the methods; who may read what is the daemons' decision, so a
# refusal of a read comes from permissiond or the app (naming the polkit action), never from the bus.
check_policy_anyone_may_call_reads() {
    expect_exit 1 as_nobody dbus-send --system --print-reply --dest=org.relaunch.Permissions1 \
        /org/relaunch/Permissions1 org.relaunch.Permissions1.Get string:checkin-demo string:camera
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.permissions.read" "Get by uid 65534 (refused by permissiond)"
    expect_exit 0 as_nobody busctl call org.relaunch.Permissions1 /org/relaunch/Permissions1 \
        org.relaunch.Permissions1 ListApps
    expect_exit 0 as_nobody busctl introspect org.relaunch.Permissions1 /org/relaunch/Permissions1
    wait_until 60 sh -c "'$SANDBOX' exec -- busctl list --acquired --no-pager | grep -q org.relaunch.CheckInDemo1"
    expect_exit 1 as_nobody dbus-send --system --print-reply --dest=org.relaunch.CheckInDemo1 /org/relaunch/App1 \
        org.relaunch.App1.Screen
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.app.drive" "Screen by uid 65534 (refused by the app)"
    expect_exit 0 as_nobody busctl call org.relaunch.CheckInDemo1 /org/relaunch/App1 org.relaunch.App1 Ready
}

# The bus policy lets anyone call Set, Reset and Tap (systemd/dbus/*.conf): the services refuse callers
# polkit does not authorize. Each refusal must be the service's after polkit answered (not dbus-daemon's,
# not one for want of polkit); TestHook is the one member the bus policy itself keeps from non-root.
check_policy_only_root_may_change() {
    # dbus-send prints the error's name and message (busctl only the errno's text).
    local pd=(--dest=org.relaunch.Permissions1 /org/relaunch/Permissions1 org.relaunch.Permissions1)
    local app=(--dest=org.relaunch.CheckInDemo1 /org/relaunch/App1 org.relaunch.App1)
    expect_exit 1 as_nobody dbus-send --system --print-reply "${pd[0]}" "${pd[1]}" "${pd[2]}.Set" \
        string:checkin-demo string:camera string:allowed
    assert_service_refused "$EXPECT_OUTPUT" "Set by uid 65534"
    assert_contains "$EXPECT_OUTPUT" "uid 65534" "permissiond's refusal of Set"
    expect_exit 1 as_nobody dbus-send --system --print-reply "${pd[0]}" "${pd[1]}" "${pd[2]}.Reset" \
        string:checkin-demo string:camera
    assert_service_refused "$EXPECT_OUTPUT" "Reset by uid 65534"
    expect_exit 1 as_nobody dbus-send --system --print-reply "${app[0]}" "${app[1]}" "${app[2]}.Tap" string:check-in
    assert_service_refused "$EXPECT_OUTPUT" "Tap by uid 65534"
    expect_exit 1 as_nobody dbus-send --system --print-reply "${pd[0]}" "${pd[1]}" "${pd[2]}.TestHook" string:hang
    assert_bus_policy_refused "$EXPECT_OUTPUT" "permissiond's TestHook by uid 65534"
    expect_exit 1 as_nobody dbus-send --system --print-reply "${app[0]}" "${app[1]}" "${app[2]}.TestHook" string:hang
    assert_bus_policy_refused "$EXPECT_OUTPUT" "the app's TestHook by uid 65534"
    # The refusals above said polkit answered; it is up still.
    polkit_is_up >/dev/null || fail "polkit is not up after the refusals: $(polkit_is_up)"
}

check_policy_only_owners_may_own() {
    local request='org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus RequestName su'
    # shellcheck disable=SC2086  # $request is several words on purpose
    expect_exit 1 as_nobody busctl call $request org.relaunch.Permissions1 4
    # shellcheck disable=SC2086
    expect_exit 1 as_nobody busctl call $request org.relaunch.CheckInDemo1 4
    # shellcheck disable=SC2086
    expect_exit 1 in_sandbox setpriv --reuid=relaunch-checkin --regid=relaunch-checkin --clear-groups \
        busctl call $request org.relaunch.Permissions1 4
}
