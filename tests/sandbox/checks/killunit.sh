# What calling systemd's KillUnit takes (systemd 252), and that permissiond.service has exactly that:
# permissiond runs as relaunch-permissiond without capabilities; systemd asks polkit
# (org.freedesktop.systemd1.manage-units, details unit= and verb=), and the rule that
# `relaunch-app-unit --polkit-rules` writes from the registrations (at permissiond's start and reload)
# allows that user the verb kill on the units of registered apps, and nothing else.
# SIGCONT (18) is the probe: authorized or not, it does the running app no harm.

killunit_probe() {
    echo busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager \
        KillUnit ssi "${1:-checkin-demo.service}" main 18
}

check_killunit_allowed_for_permissiond_on_app_units() {
    # shellcheck disable=SC2046
    expect_exit 0 run_like "$REPO/systemd/permissiond.service" $(killunit_probe)
}

check_app_unit_reads_registrations_as_permissiond_does() {
    # relaunch-app-unit, which writes polkit's list of the units permissiond may kill, with permissiond's parser:
    # the last Unit= of a file counts; a file in /etc/relaunch/apps.d hides one of the same name in
    # /run/relaunch/apps.d; a file permissiond skips (an unknown key) counts for nothing; [app NAME]
    # sections of permissiond.conf count, unless apps.d registers the same app (its unit wins);
    # anything else does not. Probe units that do not exist, in files that are removed again (and
    # permissiond.conf put back) whatever happens.
    expect_exit 0 in_sandbox bash -c '
        set -u
        unit=/usr/local/lib/relaunch/relaunch-app-unit conf=/etc/relaunch/permissiond.conf
        mkdir -p /run/relaunch/apps.d /etc/relaunch/apps.d
        [ -f "$conf" ] && cp -p "$conf" /run/relaunch-probe-conf
        restore() {
            rm -f /run/relaunch/apps.d/zz-probe.conf /etc/relaunch/apps.d/zz-probe.conf /etc/relaunch/apps.d/zz-probe-bad.conf
            if [ -f /run/relaunch-probe-conf ]; then mv /run/relaunch-probe-conf "$conf"; else rm -f "$conf"; fi
        }
        trap restore EXIT
        says() { local got=0; "$unit" "$2" || got=$?; [ "$got" -eq "$1" ] || { echo "relaunch-app-unit $2 exited $got, expected $1 ($3)"; exit 1; }; }
        printf "[App]\nUnit=zz-probe-a.service\nUnit = zz-probe-b.service \nPermissions=camera\n" >/run/relaunch/apps.d/zz-probe.conf
        says 1 zz-probe-a.service "a later Unit= replaces it"
        says 0 zz-probe-b.service "the last Unit= of a file in /run/relaunch/apps.d"
        printf "[App]\nUnit=zz-probe-c.service\nPermissions=camera\n" >/etc/relaunch/apps.d/zz-probe.conf
        says 1 zz-probe-b.service "hidden by the file of the same name in /etc/relaunch/apps.d"
        says 0 zz-probe-c.service "registered in /etc/relaunch/apps.d"
        printf "\n[app zz-probe-d]\nunit = zz-probe-d.service # a comment\n" >>"$conf"
        says 0 zz-probe-d.service "an [app NAME] section of permissiond.conf"
        printf "\n[app zz-probe]\nunit = zz-probe-f.service\n" >>"$conf"
        says 1 zz-probe-f.service "a section of an app that apps.d registers with another unit"
        printf "[App]\nUnit=zz-probe-g.service\nColour=blue\n" >/etc/relaunch/apps.d/zz-probe-bad.conf
        says 1 zz-probe-g.service "a file permissiond skips (unknown key Colour)"
        says 0 checkin-demo.service "a seed app"
        says 1 zz-probe-e.service "registered nowhere"
        says 2 "" "no unit named"
    '
}

# killunit_as_permissiond UNIT: KillUnit(UNIT, main, SIGCONT) as permissiond's user; its exit status.
killunit_as_permissiond() {
    # shellcheck disable=SC2046
    run_like "$REPO/systemd/permissiond.service" $(killunit_probe "$1")
}

# killunit_refused_as_permissiond UNIT: succeeds when that KillUnit is refused (Access denied).
killunit_refused_as_permissiond() {
    local out status=0
    out=$(killunit_as_permissiond "$1" 2>&1) || status=$?
    [[ $status -ne 0 && ( "$out" == *"Access denied"* || "$out" == *"Interactive authentication required"* ) ]] ||
        { echo "KillUnit of $1 exited $status: $out"; return 1; }
}

KILL_PROBE_FILES=(/run/relaunch/apps.d/zz-kill-probe.conf /run/relaunch/apps.d/zz-kill-slash.conf
    /run/relaunch/apps.d/zz-kill-quote.conf)
KILL_PROBE_UNITS=(zz-kill-probe.service zz-kill-other.service)

kill_probe_remove() {
    in_sandbox rm -f "${KILL_PROBE_FILES[@]}" || true
    in_sandbox systemctl stop "${KILL_PROBE_UNITS[@]}" 2>/dev/null || true
    in_sandbox systemctl reset-failed "${KILL_PROBE_UNITS[@]}" 2>/dev/null || true
    in_sandbox systemctl reload permissiond.service || true
}

# kill_probe_file FILE LINE...: FILE holds the LINEs, as they are.
kill_probe_file() {
    local file=$1
    shift
    in_sandbox sh -c 'mkdir -p "${1%/*}" && f=$1 && shift && printf "%s\n" "$@" >"$f"' sh "$file" "$@"
}

# kill_probe_start UNIT: UNIT as a transient service that sleeps, active.
kill_probe_start() {
    in_sandbox systemctl reset-failed "$1" 2>/dev/null || true
    in_sandbox systemd-run --quiet --unit="$1" -p DefaultDependencies=no sleep 600
    wait_until 30 unit_is_active "$1"
}

check_killunit_follows_registrations_without_a_process_per_kill() {
    # polkit decides permissiond's kills from a list of the registered apps' units, written by
    # relaunch-app-unit --polkit-rules (root) when permissiond starts or reloads; polkitd rereads its
    # rules by itself. So: no rule starts a process; an app registered later can be killed once
    # permissiond is reloaded, without restarting polkit, and not before; one removed cannot be,
    # after the reload; a hostile registration is inert. Probe units that sleep; files removed again.
    local rules
    rules=$(in_sandbox sh -c 'cat /etc/polkit-1/rules.d/*.rules')
    assert_not_contains "$rules" "polkit.spawn" "polkit's rules (a process per kill)"
    assert_contains "$rules" '"checkin-demo.service"' "polkit's rules (the list of the registered apps' units)"
    trap kill_probe_remove EXIT
    kill_probe_start zz-kill-probe.service
    kill_probe_start zz-kill-other.service
    killunit_refused_as_permissiond zz-kill-probe.service || fail "an unregistered unit was killable: $(killunit_refused_as_permissiond zz-kill-probe.service)"

    # Registered in /run/relaunch/apps.d, beside hostile files: a unit name with backslashes (valid for
    # systemd and the parser: in a JavaScript string written as it is, '\x2d' would become '-' and name
    # zz-kill-other.service), one with a quote that would end the string and add a rule that says yes
    # to everything (the parser skips the file).
    local pid_before
    pid_before=$(unit_prop zz-kill-probe.service MainPID)
    kill_probe_file /run/relaunch/apps.d/zz-kill-probe.conf '[App]' 'Unit=zz-kill-probe.service' 'Permissions=camera'
    kill_probe_file /run/relaunch/apps.d/zz-kill-slash.conf '[App]' 'Unit=zz\x2dkill\x2dother.service'
    kill_probe_file /run/relaunch/apps.d/zz-kill-quote.conf '[App]' \
        'Unit=a.service"]; polkit.addRule(function() { return polkit.Result.YES; }); //'
    in_sandbox systemctl reload permissiond.service
    wait_until 30 killunit_as_permissiond zz-kill-probe.service
    killunit_refused_as_permissiond zz-kill-other.service ||
        fail "a registration of 'zz\\x2dkill\\x2dother.service' let permissiond kill zz-kill-other.service: $(killunit_refused_as_permissiond zz-kill-other.service)"
    killunit_refused_as_permissiond polkit.service ||
        fail "after a registration with a quote, permissiond may kill polkit.service: $(killunit_refused_as_permissiond polkit.service)"
    # shellcheck disable=SC2046
    expect_exit 0 run_like "$REPO/systemd/permissiond.service" $(killunit_probe checkin-demo.service)
    in_sandbox grep -qF 'zz\u005cx2dkill\u005cx2dother.service' /etc/polkit-1/rules.d/50-relaunch-app-units.rules ||
        fail "the backslashes of a registered unit name are not escaped in 50-relaunch-app-units.rules"

    # A permission change of the new app kills its unit (SIGKILL: the sleep ends, the unit fails).
    expect_exit 0 in_sandbox relaunchctl permission set zz-kill-probe camera denied
    assert_contains "$EXPECT_OUTPUT" "app killed" "relaunchctl's answer to a change of the newly registered app"
    wait_until 30 sh -c "! '$SANDBOX' exec -- systemctl -q is-active zz-kill-probe.service"
    [[ "$(unit_prop zz-kill-probe.service MainPID)" != "$pid_before" ]] || fail "zz-kill-probe.service still runs pid $pid_before"

    # Unregistered and reloaded: refused again.
    in_sandbox rm -f /run/relaunch/apps.d/zz-kill-probe.conf
    in_sandbox systemctl reload permissiond.service
    kill_probe_start zz-kill-probe.service
    wait_until 30 killunit_refused_as_permissiond zz-kill-probe.service
    trap - EXIT
    kill_probe_remove
}

check_killunit_refused_for_permissiond_on_other_units() {
    # shellcheck disable=SC2046
    expect_exit 1 run_like "$REPO/systemd/permissiond.service" $(killunit_probe polkit.service)
    assert_refused "$EXPECT_OUTPUT" "KillUnit of polkit.service by permissiond's user" ask-polkit
}

check_permissiond_may_not_restart_or_stop_apps() {
    expect_exit 1 run_like "$REPO/systemd/permissiond.service" busctl call org.freedesktop.systemd1 \
        /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager RestartUnit ss checkin-demo.service replace
    assert_refused "$EXPECT_OUTPUT" "RestartUnit by permissiond's user" ask-polkit
}

check_reset_failed_allowed_for_permissiond_on_app_units_only() {
    # permissiond resets the start-limit counter its own kills filled (a permission kill is not a crash).
    expect_exit 0 run_like "$REPO/systemd/permissiond.service" busctl call org.freedesktop.systemd1 \
        /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager ResetFailedUnit s checkin-demo.service
    expect_exit 1 run_like "$REPO/systemd/permissiond.service" busctl call org.freedesktop.systemd1 \
        /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager ResetFailedUnit s polkit.service
    assert_refused "$EXPECT_OUTPUT" "ResetFailedUnit of polkit.service by permissiond's user"
}

check_killunit_refused_for_non_root_even_with_cap_kill() {
    # shellcheck disable=SC2046
    expect_exit 1 in_sandbox systemd-run --pipe --wait --quiet -p DefaultDependencies=no \
        -p User=relaunch-checkin -p AmbientCapabilities=CAP_KILL $(killunit_probe)
    assert_refused "$EXPECT_OUTPUT" "KillUnit by a non-root user with CAP_KILL"
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

# systemd's refusal says "Access denied", or, where polkit would let an administrator authenticate,
# "Interactive authentication required": refused either way. systemd says "Access denied" too when polkit
# is not there to ask, so with ASK_POLKIT=yes the refusal counts only with polkit up and answering
# permissiond's user itself: pkcheck, run as that user, must get polkit's "not authorized" for the
# action (exit 1, or 2: only after authentication), not fail to reach it (127). (Only trusted callers
# may pass details such as unit=, so this asks about the action as a whole.)
assert_refused() {
    case "$1" in
        *"Access denied"*|*"Interactive authentication required"*) ;;
        *) fail "$2 was not refused as expected; it said: $1" ;;
    esac
    wait_until 60 polkit_is_up
    [[ "${3:-}" == ask-polkit ]] || return 0
    local status=0 out
    # systemd-run turns $$$$ into $$ (its own $ expansion), which sh turns into pkcheck's own PID.
    out=$(run_like "$REPO/systemd/permissiond.service" sh -c \
        "exec pkcheck --action-id org.freedesktop.systemd1.manage-units --process \$\$\$\$" 2>&1) || status=$?
    [[ $status -eq 1 || $status -eq 2 ]] ||
        fail "$2: polkit itself did not answer 'not authorized' to pkcheck as permissiond's user (exit $status): $out"
}
