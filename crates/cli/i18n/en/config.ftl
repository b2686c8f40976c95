# config
