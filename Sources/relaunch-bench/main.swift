// relaunch-bench: placeholder entry point.
print("relaunch-bench: not built yet")
