-- Frozen copy of the mcpvet store schema, version 1 (src/store/store.c,
-- migrations[0]). Never edit: test_store opens a file made from this with
-- the current code to prove the forward migrations. A new schema version
-- adds a migration step in store.c and a v2.sql here.
PRAGMA application_id = 1835233398;
CREATE TABLE servers (
 id INTEGER PRIMARY KEY,
 name TEXT NOT NULL UNIQUE,
 identity TEXT NOT NULL,
 transport TEXT NOT NULL,
 reached TEXT NOT NULL,
 previous_reached TEXT,
 first_seen INTEGER NOT NULL,
 last_seen INTEGER NOT NULL);
CREATE TABLE tools (
 id INTEGER PRIMARY KEY,
 server_id INTEGER NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
 kind TEXT NOT NULL,
 name TEXT NOT NULL,
 state TEXT NOT NULL CHECK (state IN
  ('pending','approved','changed','quarantined','removed')),
 previous_state TEXT,
 approved_pin TEXT,
 approved_definition TEXT,
 approved_identity TEXT,
 forced INTEGER NOT NULL DEFAULT 0,
 manual_quarantine INTEGER NOT NULL DEFAULT 0,
 current_pin TEXT NOT NULL,
 current_definition TEXT NOT NULL,
 body_hash TEXT NOT NULL,
 hash_name TEXT, hash_title TEXT, hash_description TEXT,
 hash_input_schema TEXT, hash_output_schema TEXT, hash_annotations TEXT,
 verdict TEXT,
 findings TEXT,
 renamed_from TEXT,
 first_seen INTEGER NOT NULL,
 last_seen INTEGER NOT NULL,
 state_since INTEGER NOT NULL,
 UNIQUE (server_id, kind, name));
CREATE TABLE events (
 id INTEGER PRIMARY KEY,
 time INTEGER NOT NULL,
 actor TEXT NOT NULL,
 server TEXT NOT NULL,
 kind TEXT,
 tool TEXT,
 old_state TEXT,
 new_state TEXT,
 old_pin TEXT,
 new_pin TEXT,
 reason TEXT);
CREATE INDEX events_by_tool ON events (server, tool, id);
PRAGMA user_version = 1;
