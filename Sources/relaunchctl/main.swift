// relaunchctl: placeholder entry point.
print("relaunchctl: not built yet")
