# Words several commands share.

# A count of days.
days = { $count ->
    [one] { $count } day
   *[other] { $count } days
}
white = White
black = Black
