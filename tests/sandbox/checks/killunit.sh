# What calling systemd's KillUnit takes (systemd 252, no polkit), and that permissiond.service has it.
# The finding behind permissiond.service's User=root + CapabilityBoundingSet= : keep it true.
# SIGCONT (18) is the probe: authorized or not, it does the running app no harm.

killunit_probe() {
    echo busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager \
        KillUnit ssi checkin-demo.service main 18
}

check_killunit_allowed_with_permissiond_sandboxing() {
    # Root with an empty capability bounding set and a user namespace, over the system bus.
    # shellcheck disable=SC2046
    expect_exit 0 run_like "$REPO/systemd/permissiond.service" $(killunit_probe)
}

check_killunit_refused_for_non_root_even_with_cap_kill() {
    # shellcheck disable=SC2046
    expect_exit 1 in_sandbox systemd-run --pipe --wait --quiet -p DefaultDependencies=no \
        -p User=relaunch-checkin -p AmbientCapabilities=CAP_KILL $(killunit_probe)
    assert_contains "$EXPECT_OUTPUT" "Access denied" "KillUnit by a non-root user with CAP_KILL"
}

check_app_runs_with_its_unit_sandboxing() {
    # A Swift program (Foundation) under checkin-demo.service's sandboxing, MemoryDenyWriteExecute and
    # the system call filter included, when a Swift toolchain is installed.
    local plutil
    plutil=$(command -v plutil || true)
    [[ -n "$plutil" ]] || { note "no plutil (Swift toolchain) on PATH: skipped the Swift run"; return 0; }
    plutil=$(readlink -f "$plutil")
    expect_exit 0 run_like "$REPO/systemd/checkin-demo.service" "$plutil" -help
}
