# Counting Swift Testing's results in a log, for the bash runners that boot a sandbox and run a Swift
# test target inside it (tests/sandbox/run, tests/toggle/run). Sourced; the caller defines ok and bad
# (each counts one check and prints its line).

# count_swift_tests LOG: calls ok or bad for each test LOG says passed or failed.
count_swift_tests() {
    local line
    while IFS= read -r line; do
        if [[ $line =~ Test\ (.*)\ passed\ after ]]; then ok "${BASH_REMATCH[1]}"
        elif [[ $line =~ Test\ (.*)\ failed\ after ]]; then bad "${BASH_REMATCH[1]}"
        fi
    done < <(grep -E '^[^ ]* Test [^ ].* (passed|failed) after' "$1" | grep -v 'Test run with' || true)
}

# swift_tests_ran LOG STATUS NAME: when swift test exited STATUS without a failing test, or ran no
# test though it exited 0, calls bad naming NAME and the log (a runner that ran nothing cannot pass).
swift_tests_ran() {
    local log=$1 status=$2 name=$3
    if [[ $status -ne 0 ]] && ! grep -qE 'Test .* failed after' "$log"; then
        tail -n 30 "$log"
        bad "$name ran (exit $status without a failing test; see $log)"
    elif [[ $status -eq 0 ]] && ! grep -qE 'Test .* passed after' "$log"; then
        bad "$name ran no test (see $log)"
    fi
    # What each failure said, under its line.
    grep -E 'recorded an issue|error:' "$log" | head -n 20 | sed 's/^/    /' || true
}
