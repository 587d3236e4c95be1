# Sourced by scripts/sandbox, scripts/install, scripts/uninstall and the tests: the project's own apps.
# Each app APP ships systemd/apps.d/APP.conf (its registration, relaunch-apps.d(5)), systemd/APP.service,
# the executable APP, the D-Bus policy systemd/dbus/BUSNAME.conf of its bus name, its system user in
# systemd/sysusers.d/relaunch.conf and the man page docs/man/APP.8. Adding an app is adding those files.

# project_apps REPO: the app ids, one a line, in file-name order.
project_apps() {
    local file
    for file in "$1"/systemd/apps.d/*.conf; do
        [[ -e "$file" ]] && basename "$file" .conf
    done
    return 0
}

# project_app_bus_name REPO APP: the BusName= of the app's registration.
project_app_bus_name() {
    sed -n 's/^BusName=[[:space:]]*//p' "$1/systemd/apps.d/$2.conf" | tail -n 1
}
