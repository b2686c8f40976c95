# daemon
