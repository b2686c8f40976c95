# errors-store
