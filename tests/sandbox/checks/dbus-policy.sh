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
    wait_until 20 sh -c "'$SANDBOX' exec -- busctl list --acquired --no-pager | grep -q org.relaunch.CheckInDemo1"
    expect_exit 1 as_nobody dbus-send --system --print-reply --dest=org.relaunch.CheckInDemo1 /org/relaunch/App1 \
        org.relaunch.App1.Screen
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.app.drive" "Screen by uid 65534 (refused by the app)"
    expect_exit 0 as_nobody busctl call org.relaunch.CheckInDemo1 /org/relaunch/App1 org.relaunch.App1 Ready
}

check_policy_only_root_may_change() {
    expect_exit 1 as_nobody busctl call org.relaunch.Permissions1 /org/relaunch/Permissions1 \
        org.relaunch.Permissions1 Set sss checkin-demo camera allowed
    assert_contains "$EXPECT_OUTPUT" "Access denied" "Set by uid 65534"
    expect_exit 1 as_nobody busctl call org.relaunch.Permissions1 /org/relaunch/Permissions1 \
        org.relaunch.Permissions1 Reset ss checkin-demo camera
    assert_contains "$EXPECT_OUTPUT" "Access denied" "Reset by uid 65534"
    expect_exit 1 as_nobody busctl call org.relaunch.CheckInDemo1 /org/relaunch/App1 \
        org.relaunch.App1 Tap s check-in
    assert_contains "$EXPECT_OUTPUT" "Access denied" "Tap by uid 65534"
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
