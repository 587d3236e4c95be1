# Sourced by scripts/sandbox, scripts/install, scripts/uninstall and the tests: the project's own apps.
# Each app APP ships systemd/apps.d/APP.conf (its registration, relaunch-apps.d(5)), systemd/APP.service,
# the executable APP, the D-Bus policy systemd/dbus/BUSNAME.conf of its bus name, its system user in
# systemd/sysusers.d/relaunch.conf and the man page docs/man/APP.8. Adding an app is adding those files.
# A registration's settings are read by relaunch-app-unit (RelaunchContract's parser, as permissiond
# reads them), never here.

# project_apps REPO: the app ids (the registrations' file names), one a line, in file-name order.
project_apps() {
    local file
    for file in "$1"/systemd/apps.d/*.conf; do
        [[ -e "$file" ]] && basename "$file" .conf
    done
    return 0
}

# project_app_unit_helper REPO: the path of relaunch-app-unit: in $RELAUNCH_BIN_DIR, REPO's debug or
# release build, else the installed one; fails with a message when there is none.
project_app_unit_helper() {
    local candidate
    for candidate in ${RELAUNCH_BIN_DIR:+"$RELAUNCH_BIN_DIR/relaunch-app-unit"} "$1/.build/debug/relaunch-app-unit" \
        "$1/.build/release/relaunch-app-unit" /usr/lib/relaunch/relaunch-app-unit /usr/local/lib/relaunch/relaunch-app-unit; do
        [[ -x "$candidate" ]] && { echo "$candidate"; return 0; }
    done
    echo "project-apps.sh: no relaunch-app-unit (it reads the registrations); build it: swift build --product relaunch-app-unit" >&2
    return 1
}

# project_app_bus_name REPO APP: the BusName= of the app's registration (empty when it has none or
# the file does not parse; relaunch-app-unit then says why on stderr).
project_app_bus_name() {
    local helper
    helper=$(project_app_unit_helper "$1") || return 1
    { "$helper" --list "$1/systemd/apps.d" || true; } | awk -F '\t' -v app="$2" '$1 == app && $3 != "-" { print $3 }'
}
