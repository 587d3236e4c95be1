// The two profiles as tables: docs/PERMISSIONS.md prints them (RelaunchContractTests checks it does).
// A rule's source names the platform's documentation, or the observed behaviour and where it was
// reported; where nothing is known the rule says "unknown" and kills (the conservative choice: the
// app must survive a kill, and a test that expects one sees the restoration path).

extension PermissionProfile {
    /// iOS: a privacy permission changed in Settings ends the app; location and notifications are
    /// seen in place.
    package static let ios = PermissionProfile(
        name: .ios,
        rules: [
            PermissionRule(
                permission: .camera, states: simple, onRevoke: .kill, onGrant: .kill,
                source: "observed: iOS ends the app (SIGKILL) when a privacy setting changes in Settings (seed 002; agent-device #1796)"),
            PermissionRule(
                permission: .microphone, states: simple, onRevoke: .kill, onGrant: .kill,
                source: "observed: as camera (agent-device #1796)"),
            PermissionRule(
                permission: .photos,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, [], aliases: ["none"]),
                    ProfileState(.addOnly, [.write, .lasting]),
                    ProfileState(.limited, [.readSelected, .write, .lasting]),
                    ProfileState(.allowed, [.readAll, .readSelected, .write, .lasting], aliases: ["full"]),
                ],
                onRevoke: .kill, onGrant: .kill,
                source: "Apple: PHAuthorizationStatus (.limited, iOS 14), PHAccessLevel.addOnly; kill observed as camera "
                    + "(simctl photos/photos-add: agent-device #108, #2363)"),
            PermissionRule(
                permission: .contacts,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, [], aliases: ["none"]),
                    ProfileState(.limited, [.readSelected, .lasting]),
                    ProfileState(.allowed, [.readAll, .readSelected, .lasting], aliases: ["full"]),
                ],
                onRevoke: .kill, onGrant: .kill,
                source: "Apple: CNAuthorizationStatus.limited (iOS 18); kill on a change to or from limited unknown, "
                    + "conservative: kill (simctl contacts-limited: agent-device #2363)"),
            PermissionRule(
                permission: .calendars,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, [], aliases: ["none"]),
                    ProfileState(.writeOnly, [.write, .lasting]),
                    ProfileState(.allowed, [.readAll, .write, .lasting], aliases: ["full"]),
                ],
                onRevoke: .kill, onGrant: .kill,
                source: "Apple: EKAuthorizationStatus.writeOnly (iOS 17); kill on write-only <-> full unknown, "
                    + "conservative: kill"),
            PermissionRule(
                permission: .location,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, [], aliases: ["never"]),
                    ProfileState(.whileUsingApproximate, [.use, .lasting]),
                    ProfileState(.allowed, [.use, .precise, .lasting], aliases: ["while-using"]),
                    ProfileState(.alwaysApproximate, [.use, .background, .lasting]),
                    ProfileState(.always, [.use, .background, .precise, .lasting]),
                ],
                onRevoke: .notified, onGrant: .notified,
                source: "Apple: CLLocationManagerDelegate.locationManagerDidChangeAuthorization(_:) is called when "
                    + "authorization or accuracy (CLAccuracyAuthorization, iOS 14) changes; the app keeps running"),
            PermissionRule(
                permission: .notifications,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, []),
                    ProfileState(.provisional, [.deliver, .lasting]),
                    ProfileState(.allowed, [.deliver, .alert, .lasting]),
                ],
                onRevoke: .notified, onGrant: .notified,
                source: "observed: a change in Settings does not end the app; it reads "
                    + "UNUserNotificationCenter.notificationSettings when it returns (Maestro #2331, maestro-docs #152, "
                    + "agent-device #117); Apple: UNAuthorizationStatus.provisional (iOS 12)"),
        ],
        oneTimeDelay: nil)

    /// Android: revoking any granted runtime permission kills the process; a grant is seen when the
    /// app next checks; one-time grants expire once the app stays in the background.
    package static let android = PermissionProfile(
        name: .android,
        rules: [
            PermissionRule(
                permission: .camera, states: simple + [ProfileState(.allowedOnce, [.use])],
                onRevoke: .kill, onGrant: .nothing,
                source: "Android: a revoked runtime permission ends the app's process (observed foreground and "
                    + "background: agent-device #1796); one-time grants: Android 11 'One-time permissions'"),
            PermissionRule(
                permission: .microphone, states: simple + [ProfileState(.allowedOnce, [.use])],
                onRevoke: .kill, onGrant: .nothing,
                source: "as camera (Android 11 one-time permissions cover camera, microphone and location)"),
            PermissionRule(
                permission: .photos,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, [], aliases: ["none"]),
                    ProfileState(.limited, [.readSelected, .write, .lasting]),
                    ProfileState(.allowed, [.readAll, .readSelected, .write, .lasting], aliases: ["full"]),
                ],
                onRevoke: .kill, onGrant: .nothing,
                source: "Android 14: READ_MEDIA_VISUAL_USER_SELECTED (selected photos); revoke kills as any runtime "
                    + "permission (agent-device #1796)"),
            PermissionRule(
                permission: .contacts, states: simple, onRevoke: .kill, onGrant: .nothing,
                source: "Android: READ_CONTACTS is a runtime permission; revoke kills (agent-device #1796)"),
            PermissionRule(
                permission: .calendars, states: simple, onRevoke: .kill, onGrant: .nothing,
                source: "Android: READ_CALENDAR is a runtime permission; revoke kills (agent-device #1796)"),
            PermissionRule(
                permission: .location,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, [], aliases: ["never"]),
                    ProfileState(.allowedOnce, [.use, .precise]),
                    ProfileState(.whileUsingApproximate, [.use, .lasting]),
                    ProfileState(.allowed, [.use, .precise, .lasting], aliases: ["while-using"]),
                    ProfileState(.alwaysApproximate, [.use, .background, .lasting]),
                    ProfileState(.always, [.use, .background, .precise, .lasting]),
                ],
                onRevoke: .kill, onGrant: .nothing,
                source: "Android 12: ACCESS_COARSE_LOCATION vs ACCESS_FINE_LOCATION (approximate); Android 10/11: "
                    + "ACCESS_BACKGROUND_LOCATION granted and revoked on its own ('Allow all the time'); a revoke "
                    + "of either kills (agent-device #1796)"),
            PermissionRule(
                permission: .notifications,
                states: [
                    ProfileState(.notDetermined, []),
                    ProfileState(.denied, []),
                    ProfileState(.allowed, [.deliver, .alert, .lasting]),
                ],
                onRevoke: .kill, onGrant: .nothing,
                source: "Android 13: POST_NOTIFICATIONS is a runtime permission; whether its revoke kills is not "
                    + "documented, conservative: kill as any runtime permission"),
        ],
        oneTimeDelay: .seconds(60))

    /// Camera and microphone: never asked, no, yes.
    private static let simple: [ProfileState] = [
        ProfileState(.notDetermined, []),
        ProfileState(.denied, []),
        ProfileState(.allowed, [.use, .lasting]),
    ]
}
