// permissiond: placeholder entry point.
print("permissiond: not built yet")
