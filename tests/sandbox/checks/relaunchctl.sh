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
    # A run of a few checks (--only) may have restored nothing, or another app than checkin-demo; a
    # whole run always restores checkin-demo's modal through the app delegate.
    if [[ -n "${RELAUNCH_SANDBOX_ONLY:-}" ]]; then
        note "this run (--only '$RELAUNCH_SANDBOX_ONLY') may restore no modal: the review was read, only its summary checked"
        assert_contains "$EXPECT_OUTPUT" "summary:"
        return 0
    fi
    assert_contains "$EXPECT_OUTPUT" "via appDelegate"
    assert_contains "$EXPECT_OUTPUT" "summary:"
}
