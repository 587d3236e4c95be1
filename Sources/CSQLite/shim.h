// The system's SQLite (libsqlite3-dev, which GRDB builds against too): relaunchctl reads permissiond's
// history with it, read-only, without GRDB's Foundation in its static runtime.
#include <sqlite3.h>
