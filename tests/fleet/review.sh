# tests/fleet/run's comparison of the reviews: each host's own relaunchctl journal, and the receiver's
# of that host and of all. Sourced after fleet-lib.sh.

# review_each LABEL: for each host, the receiver's review with --host equals the host's own (by each
# incident's signature), every incident names the host and its machine id. Polled for 60 s: systemd's
# own entries of an incident may come a batch after Relaunch's.
review_each() {
    local label=$1 name deadline own theirs json status why
    for name in "${hosts[@]}"; do
        deadline=$((SECONDS + 60))
        while :; do
            why=""
            own=$(ct_exec "$name" relaunchctl journal --json 2>"$logs/review-$name.err" | jq -r "$signatures" 2>/dev/null | LC_ALL=C sort)
            json=$(ct_exec "$receiver" relaunchctl journal --directory "$remote" --host "$name" --json 2>"$logs/review-$receiver-$name.err")
            status=$?
            if [[ $status -ne 0 ]]; then
                fail "$label: relaunchctl journal --directory $remote --host $name --json on $receiver: exit $status: $(head -c 300 "$logs/review-$receiver-$name.err")"
                break
            fi
            theirs=$(jq -r "$signatures" <<<"$json" | LC_ALL=C sort)
            jq -e --arg h "$name" --arg m "${machine_id[$name]}" 'all(.incidents[]; .host == $h and .machineID == $m)' <<<"$json" >/dev/null ||
                why="an incident names another host or machine id than $name ${machine_id[$name]}"
            [[ -n "$own" ]] || why="$name's own review shows no incident"
            if [[ -z "$why" && "$own" == "$theirs" ]]; then
                pass "$label: the receiver's review of $name (--host $name) shows its $(grep -c . <<<"$own") incidents, the same as $name's own relaunchctl journal; each names $name and its machine id"
                break
            fi
            if [[ $SECONDS -ge $deadline ]]; then
                fail "$label: $name's review: ${why:-$(grep -c . <<<"$own") incidents on the host, $(grep -c . <<<"$theirs") on the receiver, not the same ($logs/review-diff-$name.txt)}"
                diff <(echo "$own") <(echo "$theirs") >"$logs/review-diff-$name.txt"
                head -n 6 "$logs/review-diff-$name.txt" | sed 's/^/    | /'
                break
            fi
            sleep 0.5
        done
    done
}

# by_host: the summary's byHost as an array of objects with "host" (an object keyed by host or an array).
by_host='(.summary.byHost // []) | if type == "object" then to_entries | map({host: .key} + .value) else . end'

# review_all: the receiver's whole review (--directory) and --merge count every host's incidents, each
# under its own host (none joined across hosts).
review_all() {
    local name json own_total=0 n expect mode status
    local -A own=()
    for name in "${hosts[@]}"; do
        own[$name]=$(ct_exec "$name" relaunchctl journal --json 2>/dev/null | jq '.incidents | length')
        own_total=$((own_total + ${own[$name]:-0}))
    done
    local receiver_own
    receiver_own=$(ct_exec "$receiver" relaunchctl journal --json 2>/dev/null | jq '.incidents | length')
    for mode in "--directory $remote" --merge; do
        # shellcheck disable=SC2086 # mode is two words or one
        json=$(ct_exec "$receiver" relaunchctl journal $mode --json 2>"$logs/review-all.err")
        status=$?
        [[ $status -eq 0 ]] || { fail "relaunchctl journal $mode --json on $receiver: exit $status: $(head -c 300 "$logs/review-all.err")"; continue; }
        # And fleet-old's, from the receiver's file of before the upgrade (trust.sh).
        expect=$((own_total + legacy_incidents))
        [[ $mode == --merge ]] && expect=$((expect + receiver_own))
        n=$(jq '.incidents | length' <<<"$json")
        local bad=""
        for name in "${hosts[@]}"; do
            [[ "$(jq -r --arg h "$name" "[$by_host | .[] | select(.host == \$h) | .incidents] | first // 0" <<<"$json")" == "${own[$name]}" ]] ||
                bad+=" byHost[$name] is not ${own[$name]};"
            [[ "$(jq --arg h "$name" '[.incidents[] | select(.host == $h)] | length' <<<"$json")" == "${own[$name]}" ]] ||
                bad+=" $name's incidents are not ${own[$name]};"
        done
        if [[ "$n" == "$expect" && -z "$bad" ]]; then
            pass "relaunchctl journal $mode on $receiver: $n incidents, each host's under its own (${hosts[*]}: ${own[*]}$([[ $mode == --merge ]] && echo "; $receiver's own: $receiver_own")), byHost the same"
        else
            fail "relaunchctl journal $mode on $receiver: $n incidents, expected $expect;$bad"
        fi
    done
}
