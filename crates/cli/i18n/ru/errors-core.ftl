# errors-core
# Ошибки ядра (crates/core).

# $text: дата, как её ввели, в кавычках.
err-core-date = { $text } — не дата (нужно ГГГГ-ММ-ДД или ДД.ММ.ГГГГ)

## Перерывы. $existing и $span: дни перерыва, «01.07.2026–10.07.2026».
err-core-break-reversed = перерыв не может закончиться ({ $to }) раньше, чем начаться ({ $from })
err-core-break-overlaps = перерыв пересекается с уже взятым перерывом { $existing }
err-core-break-over-allowance = { $year }: уже { $used ->
    [one] взят { $used } день
    [few] взято { $used } дня
   *[many] взято { $used } дней
} перерыва, просят ещё { $asked } { $asked ->
    [one] день
    [few] дня
   *[many] дней
}, а в год можно не больше { $allowed } { $allowed ->
    [one] дня
   *[other] дней
} (51.7.1)
err-core-break-second-in-year = в { $year } году уже есть перерыв { $existing }, а он может быть только один (10.4.1)
err-core-break-too-long = перерыв в { $days } { $days ->
    [one] день
    [few] дня
   *[many] дней
} длиннее разрешённого: не больше { $allowed } { $allowed ->
    [one] дня
   *[other] дней
} (10.4.1)
err-core-break-not-early = перерыв { $span } к { $back_on } уже закончился: заканчивать досрочно нечего

## История часов партии, которую нельзя сосчитать.
err-core-clock-sent-before-received = полуход { $ply }: отправлен { $sent }, раньше, чем был получен предыдущий ход ({ $received })
err-core-clock-bad-variation = вариант, предложенный с полуходом { $proposed_with } и принятый до полухода { $accepted_through }, не укладывается в сделанные полуходы или пересекается с другим
err-core-clock-no-such-ply = записано на полуходе { $ply }, но сделаны или ожидаются только полуходы с 1 по { $last }
err-core-clock-reversed-period = начисляемый период не может закончиться ({ $to }) раньше, чем начаться ({ $from })

## Принятие варианта партнёра и условный план.
err-core-accept-no-reply = принятые ходы кончаются ходом партнёра: за ними должен идти ваш ответный ход (принятый вариант без ответного хода считается неразборчивым ходом, 51.3.9)
err-core-accept-out-of-range = в предложенном варианте { $len } { $len ->
    [one] полуход
    [few] полухода
   *[many] полуходов
}: принять { $asked } нельзя
err-core-accept-extra-reply = принимаемая часть варианта, { $asked } { $asked ->
    [one] полуход
    [few] полухода
   *[many] полуходов
}, кончается вашим ходом, он и будет ответным: другого хода не указывайте
err-core-accept-empty = ход не указан
err-core-plan-too-short = план — это ожидаемый ход партнёра и ваш ответ на него, затем следующая такая пара, …: укажите не меньше двух ходов
err-core-plan-no-reply = план кончается ходом партнёра: добавьте к нему свой ответ или уберите этот ход

## Партия, которую нельзя записать в PGN.
err-core-pgn-illegal-move = ход { $ply } партии невозможен в своей позиции
err-core-pgn-illegal-variation = в варианте с хода { $ply } есть ход, невозможный в своей позиции
err-core-pgn-variation-too-far = вариант начинается с хода { $ply }, а в партии всего { $len } { $len ->
    [one] ход
    [few] хода
   *[many] ходов
}

# Ход, который не удалось прочитать: $text как записан, $reason почему.
err-core-move = { $text }: { $reason }

## Заголовок и адреса новой или импортируемой партии.
err-core-setup-no-event = не указано название соревнования (51.2.2); укажите --event NAME
err-core-setup-no-white = не указана фамилия игрока белыми (51.2.2)
err-core-setup-no-black = не указана фамилия игрока чёрными (51.2.2)
err-core-setup-opponent-is-me = адрес соперника { $email } — ваш собственный ([player] email); укажите --opponent EMAIL
err-core-setup-arbiter-is-me = адрес арбитра { $email } — ваш собственный ([player] email); укажите --arbiter EMAIL
err-core-setup-arbiter-is-opponent = адрес арбитра { $email } совпадает с адресом соперника; укажите --arbiter EMAIL

## Импорт. $error в err-core-import-unreadable: слова программы чтения PGN (по-английски);
## в err-core-import-unplayable: err-core-move.
err-core-import-unreadable = PGN не удаётся прочитать после партии { $after }: { $error }
err-core-import-unplayable = партия { $game } в PGN ({ $white } – { $black }): ход { $text } сделать нельзя: { $error }
err-core-import-no-move = ни в одном из писем нет хода партии

## Название, которого нет среди известных, в кавычках.
err-core-end-reason = { $name } — не способ окончания партии
err-core-notation = неизвестная запись ходов { $name } (нужна одна из: numeric, san, san-ru, lan, uci)
err-core-profile = неизвестные правила { $name }: нужно article51 или postal104
err-core-control = неверный контроль времени { $text }: нужно ХОДЫ/ДНИ, оба числа не меньше 1, например 10/60
err-core-penalty-cause = { $name } — не причина штрафа
err-core-language = неизвестный язык { $name } (нужно ru или en)
