# errors-mail
