/* Cause 2: a header declares functions its library does not export (sqlite3.h's
   sqlite3_win32_* and sqlite3_snapshot_* on Debian): they used to make the whole
   module fail to import.  Built against unexported.c, which defines only two of
   them; later_added.c is a newer build of the library that defines a third. */
int present(int value);
int also_present(int value);
int later_added(int value);
int never_built(int value);
