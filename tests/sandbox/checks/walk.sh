# Random walks: for every app of systemd/apps.d, taps and typing chosen at random from what its screen
# offers (Elements), then background and SIGKILL; the relaunched instance must restore exactly the
# state the killed one showed. Compared: `relaunchctl app state --json` before the kill and after the
# relaunch, without the keys a relaunch changes by design (launch, lifecycle, restoredVia, lastExit).
# Each round starts where the last one's relaunch left off, so restored state is walked on again.
#
# Seeded, and the same on any machine: each app walks RELAUNCH_WALK_ROUNDS (default 3) rounds of
# RELAUNCH_WALK_STEPS (default 20) steps, each round ended by a kill, the choices drawn from the seed
# alone. The seed is printed; RELAUNCH_WALK_SEED=N replays the same walk. RELAUNCH_WALK_SECONDS=N walks
# each app for about N seconds instead (at least one round): how far that gets depends on the machine,
# so it only records what it covered (rounds and steps) and fails only on a wrong state.

# What typing enters: numbers (amounts, slider values), words, text with blanks and non-ASCII letters,
# and input an app should refuse (empty, a number out of range, text where a number belongs).
WALK_TEXTS=("1" "3" "5" "12" "20" "42" "7.5" "0" "128" "255" "300" "-1" "Zürich" "a b" "Smith & Co" "" "x")

# The walk runs inside the sandbox as one bash (walk_app), so each step costs a relaunchctl call
# rather than an nsenter too. The functions below run there: no helper of lib.sh is used.

# walk_log LINE: remembered, and shown when the walk fails.
walk_log() {
    WALK_TRACE+=("$1")
}

walk_fail() {
    printf '  %s\n' "${WALK_TRACE[@]}" >&2
    echo "FAIL: $*" >&2
    exit 1
}

# walk_state APP: the state JSON without the keys a relaunch changes, keys sorted.
walk_state() {
    relaunchctl app --app "$1" state --json | jq -S 'del(.launch, .lifecycle, .restoredVia, .lastExit)'
}

# walk_elements APP: the current screen's elements as JSON.
walk_elements() {
    relaunchctl app --app "$1" elements --json || walk_fail "$1: relaunchctl app elements failed"
}

# walk_step APP: one random tap or typing on the app's current screen.
walk_step() {
    local app=$1 elements count index name kind text status=0 output
    elements=$(walk_elements "$app")
    count=$(jq length <<<"$elements")
    if [[ $count -eq 0 ]]; then
        # In the background (open-settings goes to Settings) nothing is on screen: come back, as a
        # user does. In the foreground every screen must offer something.
        walk_log "$app: foreground (nothing on screen)"
        relaunchctl app --app "$app" foreground >/dev/null
        elements=$(walk_elements "$app")
        count=$(jq length <<<"$elements")
        [[ $count -gt 0 ]] || walk_fail "$app: the screen in the foreground offers nothing to tap or type"
    fi
    index=$((RANDOM % count))
    name=$(jq -r ".[$index].name" <<<"$elements")
    kind=$(jq -r ".[$index].kind" <<<"$elements")
    if [[ "$kind" == type ]]; then
        text=${WALK_TEXTS[RANDOM % ${#WALK_TEXTS[@]}]}
        walk_log "$app: type $name \"$text\""
        output=$(relaunchctl app --app "$app" type "$name" "$text" 2>&1) || status=$?
    else
        walk_log "$app: tap $name"
        output=$(relaunchctl app --app "$app" tap "$name" 2>&1) || status=$?
    fi
    # 0: done; 2: the app refused the input (InvalidArgs: one line saying what it accepts). Anything
    # else (failed, unreachable, not authorized) means the walk itself broke.
    case $status in
        0) ;;
        2) [[ "$output" != *$'\n'* ]] || walk_fail "$app: a refusal of more than one line: $output"
           walk_log "  refused: $output" ;;
        *) walk_fail "$app: '$name' exited $status: $output" ;;
    esac
}

# walk_kill_and_compare APP: background, SIGKILL, relaunch; the state must come back.
walk_kill_and_compare() {
    local app=$1 unit=$1.service before after first now outcome deadline=$((SECONDS + 120))
    relaunchctl app --app "$app" background >/dev/null
    before=$(walk_state "$app")
    first=$(systemctl show -P InvocationID "$unit")
    walk_log "$app: background, SIGKILL"
    systemctl kill --signal=KILL "$unit"
    while now=$(systemctl show -P InvocationID "$unit"); [[ -z "$now" || "$now" == "$first" ]]; do
        [[ $SECONDS -lt $deadline ]] || walk_fail "$app: no new instance 120 s after the SIGKILL (InvocationID still '$now', ActiveState $(systemctl show -P ActiveState "$unit"))"
        sleep 0.05
    done
    relaunchctl app --app "$app" wait-ready --timeout 120 >/dev/null ||
        walk_fail "$app: the relaunched instance did not become ready"
    outcome=$(relaunchctl app --app "$app" state --json | jq -r .launch.outcome)
    [[ "$outcome" == restored ]] || walk_fail "$app: the relaunch says launch.outcome $outcome, not restored"
    after=$(walk_state "$app")
    if [[ "$before" != "$after" ]]; then
        diff <(echo "$before") <(echo "$after") >&2 || true
        walk_fail "$app: the state after the relaunch differs from the state before the kill (diff above: < before, > after)"
    fi
}

# walk_app APP SEED STEPS ROUNDS SECONDS: from a fresh start, ROUNDS walks of STEPS steps, each followed
# by a kill; with SECONDS > 0, walks until SECONDS have passed instead (at least one). Prints how many.
walk_app() {
    local app=$1 steps=$3 rounds=$4 seconds=$5 deadline=$((SECONDS + $5)) round step
    RANDOM=$2
    WALK_TRACE=()
    # A fresh start: no saved state (a stop empties the fd store), the app in the foreground.
    systemctl stop "$app.service"
    rm -f "/var/lib/$app/restoration.archive"
    systemctl start "$app.service"
    relaunchctl app --app "$app" wait-ready --timeout 120 >/dev/null || walk_fail "$app: not ready after a start"
    for ((round = 1; ; round++)); do
        if [[ $seconds -gt 0 ]]; then
            [[ $round -eq 1 || $SECONDS -lt $deadline ]] || break
        else
            [[ $round -le $rounds ]] || break
        fi
        walk_log "$app: round $round"
        relaunchctl app --app "$app" foreground >/dev/null
        for ((step = 1; step <= steps; step++)); do
            walk_step "$app"
        done
        walk_kill_and_compare "$app"
    done
    echo "$((round - 1))"
}

check_random_walks_come_back_after_a_kill() {
    command -v jq >/dev/null || fail "jq is missing on the host"
    # shellcheck source=../../../scripts/lib/project-apps.sh
    source "$REPO/scripts/lib/project-apps.sh"
    # A fresh seed each run unless one is given (from the kernel's random pool, not the clock); printed.
    local seed=${RELAUNCH_WALK_SEED:-$(( $(od -An -N2 -tu2 /dev/urandom) % 32768 ))}
    local rounds=${RELAUNCH_WALK_ROUNDS:-3} seconds=${RELAUNCH_WALK_SECONDS:-0} steps=${RELAUNCH_WALK_STEPS:-20}
    [[ $seed =~ ^[0-9]+$ && $rounds =~ ^[1-9][0-9]*$ && $seconds =~ ^[0-9]+$ && $steps =~ ^[1-9][0-9]*$ ]] ||
        fail "RELAUNCH_WALK_SEED, _ROUNDS, _SECONDS and _STEPS take numbers (got '$seed' '$rounds' '$seconds' '$steps')"
    local app index=0 walked apps=()
    mapfile -t apps < <(project_apps "$REPO")
    if [[ $seconds -gt 0 ]]; then
        note "seed $seed (walks of $steps steps, about ${seconds}s per app, as many rounds as fit; replay the choices with RELAUNCH_WALK_SEED=$seed)"
    else
        note "seed $seed ($rounds walks of $steps steps per app; replay with RELAUNCH_WALK_SEED=$seed)"
    fi
    for app in "${apps[@]}"; do
        # Each app its own stream of choices, so adding an app does not change another's walk.
        index=$((index + 1))
        walked=$(in_sandbox bash -c "set -euo pipefail; $(declare -p WALK_TEXTS); $(declare -f walk_log walk_fail walk_state walk_elements walk_step walk_kill_and_compare walk_app); walk_app \"\$@\"" \
            walk "$app" "$((seed * 31 + index))" "$steps" "$rounds" "$seconds")
        note "$app: covered $walked walks of $steps steps ($((walked * steps)) steps), each restored after a SIGKILL"
    done
}
