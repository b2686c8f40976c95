# errors-core
