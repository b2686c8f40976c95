# errors-store: the store crate's errors (ccmail-store's StoreError), word for word as its
# Display says them.
err-store-open = can't open the database { $path }: { $reason }
err-store-create = can't create the database file { $path }: { $error }
err-store-migrate = can't bring the database up to date: { $error }
err-store-sql = database error: { $error }
err-store-corrupt = the database holds { $what } in a form ccmail can't read
err-store-corrupt-moves = the moves of game { $game }
err-store-corrupt-attached = the rows attached to game { $game } (a row of kind { $kind })
# A trouble a user can act on, then SQLite's own words.
err-store-trouble-and-said = { $trouble } ({ $said })
err-store-sqlite-says = SQLite: { $message }, code { $code }
err-store-disk-full = the disk is full
err-store-read-only-database = the database is read-only (the file's permissions, or a read-only file system)
err-store-disk-failed = the disk failed to write or read
err-store-cant-open-file = the database file can't be opened
err-store-read-only-file-system = the file system is read-only
err-store-no-permission = no permission to write in its folder
