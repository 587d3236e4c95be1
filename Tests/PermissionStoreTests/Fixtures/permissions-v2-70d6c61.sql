-- A permission database as permissiond of 70d6c61 (schema v1 + v2) writes it: the schema is
-- `sqlite3 .dump` of a file that version's PermissionDatabase created; the rows are what its Set,
-- its kills and its outbox store (checkin-demo killed for camera, banca-demo's kill still pending).
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1: state, history, kills');
INSERT INTO grdb_migrations VALUES('v2: pending kills');
CREATE TABLE IF NOT EXISTS "permission_state" ("app" TEXT NOT NULL, "permission" TEXT NOT NULL, "state" TEXT NOT NULL CHECK (state IN ('allowed', 'denied', 'not-determined')), "changed_at" INTEGER NOT NULL, "changed_by" INTEGER NOT NULL, PRIMARY KEY ("app", "permission"));
INSERT INTO permission_state VALUES('checkin-demo','camera','allowed',2000,0);
INSERT INTO permission_state VALUES('checkin-demo','location','allowed',2500,0);
INSERT INTO permission_state VALUES('checkin-demo','photos','not-determined',2600,0);
INSERT INTO permission_state VALUES('banca-demo','camera','denied',4000,0);
CREATE TABLE IF NOT EXISTS "permission_history" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "app" TEXT NOT NULL, "permission" TEXT NOT NULL, "old_state" TEXT NOT NULL CHECK (old_state IN ('allowed', 'denied', 'not-determined')), "new_state" TEXT NOT NULL CHECK (new_state IN ('allowed', 'denied', 'not-determined')), "at" INTEGER NOT NULL, "caller_uid" INTEGER NOT NULL, "killed" BOOLEAN NOT NULL DEFAULT 0, "invocation_id" TEXT);
INSERT INTO permission_history VALUES(1,'checkin-demo','camera','not-determined','denied',1000,0,1,'0f5c6a7e1b2d4c3e8a9b0c1d2e3f4a5b');
INSERT INTO permission_history VALUES(2,'checkin-demo','camera','denied','allowed',2000,1000,1,'1a2b3c4d5e6f708192a3b4c5d6e7f809');
INSERT INTO permission_history VALUES(3,'checkin-demo','location','not-determined','allowed',2500,0,0,NULL);
INSERT INTO permission_history VALUES(4,'checkin-demo','photos','allowed','not-determined',2600,0,0,NULL);
INSERT INTO permission_history VALUES(5,'banca-demo','camera','not-determined','allowed',3000,1000,0,NULL);
INSERT INTO permission_history VALUES(6,'banca-demo','camera','allowed','denied',4000,0,0,NULL);
CREATE TABLE IF NOT EXISTS "app_kill" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "app" TEXT NOT NULL, "unit" TEXT NOT NULL, "permission" TEXT NOT NULL, "old_state" TEXT NOT NULL, "new_state" TEXT NOT NULL, "invocation_id" TEXT NOT NULL, "at" INTEGER NOT NULL);
INSERT INTO app_kill VALUES(1,'checkin-demo','checkin-demo.service','camera','not-determined','denied','0f5c6a7e1b2d4c3e8a9b0c1d2e3f4a5b',1001);
INSERT INTO app_kill VALUES(2,'checkin-demo','checkin-demo.service','camera','denied','allowed','1a2b3c4d5e6f708192a3b4c5d6e7f809',2001);
CREATE TABLE IF NOT EXISTS "pending_kill" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "app" TEXT NOT NULL, "unit" TEXT NOT NULL, "invocation_id" TEXT NOT NULL, "permission" TEXT NOT NULL, "old_state" TEXT NOT NULL, "new_state" TEXT NOT NULL, "history_ids" TEXT NOT NULL, "changed_at" INTEGER NOT NULL, "announced" BOOLEAN NOT NULL DEFAULT 0, "attempts" INTEGER NOT NULL DEFAULT 0, "last_error" TEXT);
INSERT INTO pending_kill VALUES(1,'banca-demo','banca-demo.service','0123','camera','allowed','denied','6',4000,0,0,NULL);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('permission_history',6);
INSERT INTO sqlite_sequence VALUES('app_kill',2);
INSERT INTO sqlite_sequence VALUES('pending_kill',1);
CREATE INDEX "permission_history_by_app" ON "permission_history"("app", "id");
CREATE INDEX "app_kill_by_app" ON "app_kill"("app", "id");
COMMIT;
