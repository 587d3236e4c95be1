// PermissionStoreTests: placeholder.
