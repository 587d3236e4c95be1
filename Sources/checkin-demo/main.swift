// checkin-demo: placeholder entry point.
print("checkin-demo: not built yet")
