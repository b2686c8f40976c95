# Приглашение `reply`: его справка, что не так во введённой строке, ход, который не подходит.

## Справка (`help` в приглашении): строки не длиннее 80 знаков; ширину левого столбца задаёт код.
prompt-help-intro = Введите ход в любой нотации, которую читает ccmail: 7163, Nf3, Кf3, g1-f3, g1f3.
prompt-help-after-move = В той же строке после хода можно добавить:
prompt-help-more-moves-term = ещё ходы
prompt-help-more-moves = условный вариант: ответ соперника, ваш ход, … (51.3.7)
prompt-help-draw = предложить ничью вместе с ходом
prompt-help-plan-term = plan ХОДЫ
prompt-help-plan = ваш план: ожидаемый ход соперника, ваш ответ, … (не отправляется)
prompt-help-note-term = note ТЕКСТ
prompt-help-note = замечание для партнёра (остаток строки)
prompt-help-their-variation = Вариант соперника: введите его ходы, затем свой ответ, или `accept ХОД` (весь)
prompt-help-their-variation-part = или `accept N ХОД` (его первые N полуходов, затем ХОД).
prompt-help-shown = Затем сообщение показывается точно в том виде, в каком будет отправлено:
prompt-help-answers = y (д) — отправить, e — исправить строку, c (н) — отменить (не отправлять).
prompt-help-other-commands = Другие команды:
prompt-help-accept = принять предложение ничьей (без хода; можно с замечанием)
prompt-help-resign = сдать партию (с повторным вопросом; можно с замечанием)
prompt-help-skip = пока оставить эту партию и перейти к следующей
prompt-help-board = показать партию снова;  moves   все ходы с датами
prompt-help-help = эта справка
prompt-help-quit = выйти (или Ctrl-D); подтверждённое уже отправлено или в очереди
prompt-help-russian = По-русски: ничья, замечание, план, принимаю, сдаюсь, пропуск, выход.
prompt-help-keys = Tab дополняет допустимые ходы; стрелки вверх и вниз возвращают прежние строки.

## Что не так во введённой строке.
prompt-note-text-after = текст замечания пишется после слова: например, `e5 note Спасибо`
prompt-takes-no-note = к `{ $word }` замечание не добавляется
prompt-plan-moves-after = ходы плана пишутся после слова: например, `e5 plan Nf3 Nc6`
prompt-goes-before-plan = `{ $word }` пишется перед `plan`
prompt-command-of-its-own = `{ $typed }` — отдельная команда: введите просто `{ $word }`
prompt-accept-first = `accept` пишется первым: `accept` без ходов принимает ничью, `accept ХОД` — вариант соперника с ответом ХОД
prompt-resign-alone = `resign` пишется без хода: введите просто `resign` (или `resign note ТЕКСТ`)
prompt-accept-alone = `accept` пишется без хода: введите просто `accept` (или `accept note ТЕКСТ`)
prompt-plan-needs-move = план пишется вместе с ходом: например, `e5 plan Nf3 Nc6`
prompt-draw-needs-move = ничья предлагается вместе с ходом: например, `e5 draw`; `accept` принимает предложение соперника
prompt-note-needs-move = замечание пишется вместе с ходом, `accept` или `resign`: например, `e5 note Спасибо`
prompt-unknown-word-did-you-mean = `{ $typed }` — не ход и не команда; может быть, `{ $word }`? (`help` перечисляет команды)
prompt-unknown-word = `{ $typed }` — не ход и не команда (`help` перечисляет команды)

## Ход, который не подходит к позиции: что, вероятно, имелось в виду. `$role` — pawn, knight,
## bishop, rook, queen или king; `$reason` — слова модуля чтения ходов, на языке интерфейса.
prompt-not-playable = Ход { $typed } сыграть нельзя: { $reason }.
prompt-write = Напишите { $moves }.
prompt-or = { $first } или { $last }
prompt-list-more = { $moves } и ещё { $count }
prompt-in-check = Вашему королю шах.
prompt-no-such-piece = У вас нет { $role ->
    [pawn] пешек
    [knight] коней
    [bishop] слонов
    [rook] ладей
    [queen] ферзя
   *[king] короля
}.
prompt-reaches-but-check = { $role ->
    [pawn] Пешка
    [knight] Конь
    [bishop] Слон
    [rook] Ладья
    [queen] Ферзь
   *[king] Король
} на { $square } бьёт поле { $to }, но этот ход не защищает от шаха.
prompt-pinned = { $role ->
    [pawn] Пешка на { $square } связана
    [knight] Конь на { $square } связан
    [bishop] Слон на { $square } связан
    [rook] Ладья на { $square } связана
    [queen] Ферзь на { $square } связан
   *[king] Король на { $square } связан
}: ход на { $to } оставил бы вашего короля под шахом.
prompt-piece-on-can-go = Ходы { $role ->
    [pawn] пешки
    [knight] коня
    [bishop] слона
    [rook] ладьи
    [queen] ферзя
   *[king] короля
} на { $square }: { $moves }.
prompt-piece-on-stuck = У { $role ->
    [pawn] пешки
    [knight] коня
    [bishop] слона
    [rook] ладьи
    [queen] ферзя
   *[king] короля
} на { $square } нет ходов.
prompt-pawns-near-can-go = Ходы ваших пешек рядом с вертикалью { $file }: { $moves }.
prompt-pawns-near-stuck = У ваших пешек рядом с вертикалью { $file } нет ходов.
prompt-pawns-can-go = Ходы ваших пешек: { $moves }.
prompt-pawns-stuck = У ваших пешек нет ходов.
prompt-your-piece-can-go = Ходы { $role ->
    [pawn] вашей пешки
    [knight] вашего коня
    [bishop] вашего слона
    [rook] вашей ладьи
    [queen] вашего ферзя
   *[king] вашего короля
}: { $moves }.
prompt-your-piece-stuck = У { $role ->
    [pawn] вашей пешки
    [knight] вашего коня
    [bishop] вашего слона
    [rook] вашей ладьи
    [queen] вашего ферзя
   *[king] вашего короля
} нет ходов.
prompt-your-pieces-can-go = Ходы { $role ->
    [pawn] ваших пешек
    [knight] ваших коней
    [bishop] ваших слонов
    [rook] ваших ладей
    [queen] ваших ферзей
   *[king] ваших королей
}: { $moves }.
prompt-your-pieces-stuck = У { $role ->
    [pawn] ваших пешек
    [knight] ваших коней
    [bishop] ваших слонов
    [rook] ваших ладей
    [queen] ваших ферзей
   *[king] ваших королей
} нет ходов.
prompt-moves-to = Ходы на { $square }: { $moves }.

## Экран одной партии. Ширину столбцов задаёт код.
prompt-your-move = Ваш ход: { $number } за { $side ->
    [white] белых
   *[black] чёрных
}, соперник { $opponent }
prompt-column-move = Ход
prompt-column-received = получен
prompt-column-sent = отправлен
prompt-column-days = дни
prompt-no-moves-start = Ходов ещё нет (старт { $start }).
prompt-deadline = Срок { $date }: { $words }
# Строка часов: `Белые (вы): 14 из 60 дней до 20-го хода (2 штрафных дня): осталось 46, на этот ход уже 3 дня, перерыв`.
prompt-clock-you = { $side } (вы)
prompt-clock-used = { $total } из { $limit } { $limit ->
    [one] дня
   *[many] дней
} до { $control }-го хода
prompt-clock-penalty = ({ $penalty } { $penalty ->
    [one] штрафной день
    [few] штрафных дня
   *[many] штрафных дней
})
prompt-clock-left = осталось { $left }
prompt-clock-running = на этот ход уже { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}
prompt-clock-on-break = перерыв

## Что сказало последнее сообщение соперника помимо хода и что скажет ответ.
prompt-news-draw-offer = Соперник предлагает ничью: `accept` — принять; ход — отклонить.
prompt-news-variation = Соперник предлагает вариант { $variation } (51.3.7): чтобы принять его, введите его ходы и затем свой ответ, или `accept ХОД` (весь вариант, затем ХОД), или `accept N ХОД` (его первые N полуходов).
# Даты сообщения соперника в скобках после «Замечание соперника» и «Сообщение соперника» ($when).
prompt-news-sent-received = (отправлено { $sent }, получено { $received })
prompt-news-received = (получено { $received })
prompt-news-their-note = Замечание соперника{ $when }: { $note }
prompt-news-repeat-arbiter = Сообщение соперника{ $when } было повтором хода (51.5.1): ваш ответ уйдёт с копией арбитру.
prompt-news-repeat-friendly = Сообщение соперника{ $when } было повтором хода (51.5.1): партия товарищеская, ваш ответ уйдёт только партнёру.
prompt-news-totals-differ = Соперник считает суммарное время так: белые { $their_white }, чёрные { $their_black }; по счёту ccmail — белые { $white }, чёрные { $black } (в ответе будет счёт ccmail).
# $note: что скажет ответ, на языке партии.
prompt-news-reply-will-say = В ответе будет сказано: { $note }
prompt-news-reply-cc-arbiter = Ваш ответ уйдёт с копией арбитру (ответ на повтор хода, 51.5.1).
prompt-news-held = Отложено для этой партии: сообщение { $id } ({ $reason }): `ccmail inbox`.
prompt-news-on-break = У соперника перерыв до { $to }: эти дни ему не засчитываются.
prompt-news-break-ahead = Соперник возьмёт перерыв с { $from } по { $to }.

## Сеанс приглашения: начало, отложенные сообщения, вопросы, итог.
prompt-no-json = `ccmail reply` работает только в диалоге и не имеет формы --json; см. `ccmail games --json`
prompt-no-terminal-stdin = `ccmail reply` работает в диалоге и требует терминала, но стандартный ввод — не терминал (канал или файл?). Из скрипта получите список партий через `ccmail games` и делайте ходы через `ccmail move ПАРТИЯ ХОД --yes`
prompt-no-terminal-stdout = `ccmail reply` работает в диалоге и требует терминала, но стандартный вывод — не терминал (канал или файл?). Из скрипта получите список партий через `ccmail games` и делайте ходы через `ccmail move ПАРТИЯ ХОД --yes`
prompt-no-terminal-either = `ccmail reply` работает в диалоге и требует терминала, но ни стандартный ввод, ни стандартный вывод — не терминал (канал или файл?). Из скрипта получите список партий через `ccmail games` и делайте ходы через `ccmail move ПАРТИЯ ХОД --yes`
# Партии, которые ждут ответа соперника ($others ниже), после числа наших.
prompt-others-waiting = ; { $count ->
    [one] { $count } партия ждёт ответа соперника
    [few] { $count } партии ждут ответа соперника
   *[many] { $count } партий ждут ответа соперника
}
prompt-others-more = ; ещё { $count ->
    [one] { $count } партия ждёт ответа соперника
    [few] { $count } партии ждут ответа соперника
   *[many] { $count } партий ждут ответа соперника
}
prompt-nothing-to-answer = { $today }: ваших ходов нет{ $others }.
prompt-games-to-answer = { $today }: { $count ->
    [1] ваш ход в 1 партии
    [one] ваш ход в { $count } партии, сначала самые срочные
   *[many] ваш ход в { $count } партиях, сначала самые срочные
}{ $others }.
prompt-type-your-move = Введите ход в строке приглашения; `help` перечисляет команды.
prompt-held-head = { $count ->
    [one] { $count } сообщение отложено и не применено ни к одной партии (`ccmail inbox`):
    [few] { $count } сообщения отложены и не применены ни к одной партии (`ccmail inbox`):
   *[many] { $count } сообщений отложено и не применено ни к одной партии (`ccmail inbox`):
}
prompt-held-no-sender = (без отправителя)
prompt-held-no-reason = отложено
prompt-held-more = … и ещё { $count }
prompt-no-line-editing = не удалось настроить редактирование строки
prompt-reading-line = чтение строки
prompt-reading-answer = чтение ответа
prompt-no-longer-your-move = Партия { $game }: уже не ваш ход (пришла почта?); следующая.
# Вопросы кончаются пробелом, его добавляет код.
prompt-confirm-resign = Сдать эту партию? Введите да (yes), чтобы отправить, e — исправить, c (н) — отменить:
prompt-confirm-send = Отправить? y (д) — да, e — исправить, c (н) — отменить:
prompt-confirm-resign-again = Введите да (yes), чтобы сдаться, e — исправить, c (н) — отменить.
prompt-confirm-send-again = y (д) — отправить, e — исправить строку, c (н) — отменить.
prompt-stored-for-later = Сообщение сохранено в исходящих и будет отправлено позже.
prompt-cancelled = Отменено: в очередь ничего не поставлено.
prompt-not-a-message = Это не сообщение для отправки: возврат к партии.
prompt-no-moves = Ходов ещё нет.
prompt-move-dates = получен { $received }  отправлен { $sent }
prompt-done = Готово: отвечено { $sent }, пропущено { $skipped }.
prompt-done-stopped = Готово: отвечено { $sent }, пропущено { $skipped }; остановлено, без ответа { $count ->
    [one] осталась { $count } партия
    [few] остались { $count } партии
   *[many] осталось { $count } партий
}.
