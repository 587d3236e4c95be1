# permissiond's bus names and the pd_* helpers that faults.sh, faults-services.sh and anyapp.sh still
# call; permissiond's own checks are Swift now (Tests/SandboxCheckTests/Permissiond*Checks.swift).

PD_DEST=org.relaunch.Permissions1
PD_PATH=/org/relaunch/Permissions1
PD_IFACE=org.relaunch.Permissions1
PD_APP=checkin-demo
PD_KILLED_ID=cec8a90c402d4067a74cf3669006da0e

# pd_call METHOD SIGNATURE ARG...: busctl call on Permissions1 inside the sandbox, as root.
pd_call() {
    in_sandbox busctl call "$PD_DEST" "$PD_PATH" "$PD_IFACE" "$@"
}

# pd_get APP PERMISSION: prints the state.
pd_get() {
    local out
    out=$(pd_call Get ss "$1" "$2")
    out=${out#s \"}
    echo "${out%\"}"
}

# pd_other STATE: a state different from STATE (so a Set is a change).
pd_other() {
    if [[ "$1" == allowed ]]; then echo denied; else echo allowed; fi
}

# pd_daemon_ready: permissiond is active (Type=dbus: its name is on the bus).
pd_daemon_ready() {
    wait_until 60 unit_is_active permissiond.service
}

# pd_drop_in_dir: where a runtime drop-in for permissiond.service takes effect.
# On a real host and a sandbox whose unit path has /run/systemd/system, that is the runtime drop-in
# directory; otherwise the sandbox's own unit directory (its first UnitPath entry), with a note.
pd_drop_in_dir() {
    local path
    path=$(in_sandbox systemctl show -P UnitPath)
    if [[ " $path " == *" /run/systemd/system "* ]]; then
        echo /run/systemd/system/permissiond.service.d
    else
        echo "${path%% *}/permissiond.service.d"
    fi
}

# pd_set_policy ios|android|default: switches permissiond's kill policy with a drop-in setting
# RELAUNCH_KILL_POLICY (as the scenario runner does), then restarts it and waits for its name. The
# drop-in's name sorts after the runner's (50-relaunch-scenario-policy.conf, which a scenario played
# earlier in the run leaves at ios), so the check's policy is the one in force.
pd_set_policy() {
    local dir
    dir=$(pd_drop_in_dir)
    [[ "$dir" == /run/* ]] || note "the sandbox's unit path lacks /run/systemd/system: the kill-policy drop-in went to $dir"
    if [[ "$1" == default ]]; then
        in_sandbox rm -f "$dir/90-relaunch-check-kill-policy.conf"
    else
        in_sandbox sh -c "mkdir -p '$dir' && printf '[Service]\nEnvironment=RELAUNCH_KILL_POLICY=%s\n' '$1' \
            >'$dir/90-relaunch-check-kill-policy.conf'"
    fi
    in_sandbox systemctl daemon-reload
    in_sandbox systemctl restart permissiond.service
    pd_daemon_ready
    if [[ "$1" != default ]]; then
        assert_contains "$(unit_prop permissiond.service Environment)" "RELAUNCH_KILL_POLICY=$1" \
            "permissiond's environment (drop-in in $dir)"
    fi
}
