# relaunchctl's checks are Swift now (Tests/SandboxCheckTests/RelaunchctlChecks.swift, run inside the
# sandbox); what stays here runs in bash: the post check that reads the exported journal on the host
# after the sandbox is down, and fresh_app, which inert-text.sh's checks call.

# fresh_app: the app launched fresh (no saved state, every permission not-determined), whatever
# earlier checks left on screen or in permissiond.
fresh_app() {
    in_sandbox relaunchctl app quit --force >/dev/null 2>&1 || true
    in_sandbox systemctl stop checkin-demo.service
    in_sandbox relaunchctl permission reset checkin-demo >/dev/null
    in_sandbox systemctl reset-failed checkin-demo.service >/dev/null 2>&1 || true
    in_sandbox systemctl start checkin-demo.service
    in_sandbox relaunchctl app wait-ready >/dev/null
}

# After `down`: the exported journal reads back the same timeline on the host.
post_relaunchctl_reads_the_exported_journal() {
    [[ -d "$JOURNAL_OUT" ]] || { note "no exported journal"; return 0; }
    expect_exit 0 "$BIN_DIR/relaunchctl" journal --directory "$JOURNAL_OUT"
    # A run of a few checks (--only) may have restored nothing; a whole run always restores the modal.
    if [[ -n "${RELAUNCH_SANDBOX_ONLY:-}" && ( "$EXPECT_OUTPUT" == *"no permission changes in the journal"* ||
        "$EXPECT_OUTPUT" == *"summary: "*" 0 restores"* ) ]]; then
        note "this run (--only '$RELAUNCH_SANDBOX_ONLY') restored no app: the review was read, nothing to find in it"
        assert_contains "$EXPECT_OUTPUT" "summary:"
        return 0
    fi
    assert_contains "$EXPECT_OUTPUT" "via appDelegate"
    assert_contains "$EXPECT_OUTPUT" "summary:"
}
