# Issue 34: text an app wrote reaches the reader's terminal inert. The app is asked to show a terminal
# escape sequence (set the window title to "pwned", ring the bell, clear the screen); relaunchctl's
# text output prints it escaped (\x1b]0;pwned\a\x1b[2J) and keeps the screen's lines, while --json
# keeps it exact. A host name with the same sequence: Tests/RelaunchctlTests/InertTextEndToEndTests.

INERT_ATTACK=$'\e]0;pwned\a\e[2J'
INERT_SHOWN='\x1b]0;pwned\a\x1b[2J'

# assert_inert TEXT WHAT: TEXT holds no C0 control but the line feed, no DEL and no C1 control.
assert_inert() {
    local raw
    raw=$(printf '%s' "$1" | LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' || true)
    [[ $raw -eq 0 ]] || fail "$2 holds raw control characters on $raw line(s): $(printf '%s' "$1" | od -c | head -n 20)"
}

check_relaunchctl_prints_an_app_s_escape_sequence_inert() {
    local screen state before
    fresh_app
    in_sandbox relaunchctl app tap tab:check-in
    in_sandbox relaunchctl app tap check-in
    before=$(in_sandbox relaunchctl app screen)
    in_sandbox relaunchctl app type note "$INERT_ATTACK"
    # The app keeps what was typed, byte for byte: JSON is the exact form.
    assert_eq "$INERT_ATTACK" "$(in_sandbox relaunchctl app state --json | jq -r .modal.note)" "the note in --json"
    assert_inert "$(in_sandbox relaunchctl app state --json)" "relaunchctl app state --json (JSON escapes it its own way)"

    screen=$(in_sandbox relaunchctl app screen)
    assert_inert "$screen" "relaunchctl app screen"
    assert_contains "$screen" "note        $INERT_SHOWN" "relaunchctl app screen"
    assert_contains "$screen" "╭" "the screen's box drawing, printed as it is"
    assert_eq "$(wc -l <<<"$before")" "$(wc -l <<<"$screen")" "the screen's line count (its lines are kept)"

    state=$(in_sandbox relaunchctl app state)
    assert_inert "$state" "relaunchctl app state"
    assert_contains "$state" "note:       $INERT_SHOWN" "relaunchctl app state"
}

check_relaunchctl_prints_a_scene_title_inert() {
    local scenes first
    notes_fresh
    first=$(notes_ctl scenes --json | jq -r '.[0].session')
    notes_ctl --scene "$first" type title "Trip$INERT_ATTACK"
    scenes=$(notes_ctl scenes)
    assert_inert "$scenes" "relaunchctl app scenes"
    assert_contains "$scenes" "Trip$INERT_SHOWN" "relaunchctl app scenes"
    assert_eq "Trip$INERT_ATTACK" "$(notes_ctl scenes --json | jq -r '.[0].title')" "the title in --json"
    assert_inert "$(notes_ctl --scene "$first" screen)" "relaunchctl app --app notes-demo screen"
}
