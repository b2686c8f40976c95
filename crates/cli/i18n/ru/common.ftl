# Слова, общие для нескольких команд.

# Число дней.
days = { $count ->
    [one] { $count } день
    [few] { $count } дня
   *[many] { $count } дней
}
white = Белые
black = Чёрные
