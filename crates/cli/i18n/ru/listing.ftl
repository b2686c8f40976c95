# listing
# `ccmail games` и `ccmail show`: список партий, одна партия, чем партия окончилась.

## games

games-none = Партий нет. Как начать новую, см. `ccmail game new --help`.
# Столбец очереди хода в списке (10 знаков).
games-finished = окончена { $result }
games-suspended = прервана
games-your-move = ВАШ ХОД
games-their-move = ждём хода
# Наш цвет в списке.
games-white = белые
games-black = чёрные
# «ход 12», «осталось Б 20 Ч 18»: слова столбцов списка.
games-move = ход
games-left = осталось
games-white-initial = Б
games-black-initial = Ч
games-held = { $count ->
    [one] { $count } задержанное письмо этой партии ждёт вас
    [few] { $count } задержанных письма этой партии ждут вас
   *[many] { $count } задержанных писем этой партии ждут вас
}: `ccmail inbox`
games-not-sent = не отправлено: { $subject } ({ $error })
games-waiting = ждёт отправки: { $subject }: неудачных попыток — { $count }, последняя: { $error }; следующая попытка { $next } (`ccmail outbox`)
games-silence-friendly = нет хода уже { $count ->
    [one] { $count } день
    [few] { $count } дня
   *[many] { $count } дней
}: партия товарищеская, на 40-й день ({ $date }) сообщать некому — арбитра нет (51.5.3)
games-silence = нет хода уже { $count ->
    [one] { $count } день
    [few] { $count } дня
   *[many] { $count } дней
}: на 40-й день ({ $date }) поражение может быть засчитано тому, кто не сообщил арбитру о задержке игры (51.5.3)

## show

show-no-game = партии { $id } нет (см. `ccmail games --all`)
show-friendly-repeat = Товарищеская партия, арбитра нет: повтор хода от { $date } ушёл только партнёру (51.5.1)
show-friendly-repeat-queued = Товарищеская партия, арбитра нет: повтор хода от { $date } ждёт отправки, только партнёру (51.5.1)
show-friendly-finished = Товарищеская партия, арбитра нет: запись оконченной партии арбитру не отправлялась (51.9.1)
show-letters = Письма без ходов:
show-changes = Изменения партии:
show-last-sent-unknown = дата отправки нашего последнего хода неизвестна: пока её нет, ни повтор, ни срок 40 дней не считаются: ccmail game set { $id } --last-sent ГГГГ-ММ-ДД
# Что было в письме партнёра.
show-kind-move = ход
show-kind-repeat = повтор хода
show-kind-draw-accept = согласие на ничью
show-kind-resignation = сдача
show-kind-break-notice = уведомление о перерыве
show-kind-break-end = конец перерыва
show-kind-address-change = смена адреса
show-kind-correction-request = запрос на исправление
show-kind-claim = заявление о просрочке времени
show-kind-adjudication = материалы для присуждения
show-kind-note = сообщение
show-kind-other = другое
show-problems = Проблемы:
show-problem-held = письмо { $message } задержано: { $reason }
show-problem-send-failed = письмо { $message } не удалось отправить: { $error }
show-problem-send-waiting = письмо { $message } ждёт отправки: неудачных попыток — { $count }, последняя: { $error }; следующая попытка { $next }
show-problem-correction-due = нужно отправить запрос на исправление по письму, полученному { $date } (51.3.4)
show-problem-overstepped = { $side } превысили контроль времени на ходе { $move } (51.6)
show-offer = Партнёр предлагает вариант { $line } (51.3.7): `ccmail move { $id } --accept-variation[=N] MOVE` принимает его целиком или первые N полуходов и отвечает ходом MOVE.
# Шаг нашего плана: ожидаемый ход партнёра, наш ответ.
show-plan-pair = если { $theirs }, то { $ours }
show-plan = Ваш план (не отправлен): { $plan }.
show-draw-mine = Вы предложили ничью; партнёр ещё не ответил
show-draw-theirs = Партнёр предлагает ничью: `ccmail move { $id } --accept-draw` принимает её; ход без этого флага её отклоняет
# Что можно сделать, когда партнёр превысил время (конец show-warning-overstepped).
show-claim-win = можно заявить о просрочке времени (`ccmail claim { $id }`) не позднее своего ответа: ответив без заявления, вы теряете право на него (51.6.1)
show-claim-friendly = в товарищеской партии нет арбитра, которому можно заявить о просрочке (51.6.1)
show-warning-overstepped-mine = Своим ходом { $move } вы превысили лимит времени: партнёр может заявить о просрочке не позднее своего ответа (51.6.1)
show-warning-overstepped = { $side } превысили лимит времени ходом { $move }: { $claim }
# $days: число дней («3 дня»).
show-warning-will-overstep-mine = Лимит времени на ваш ход { $move } уже превышен на { $days }: этим ходом вы превысите контроль времени (51.4.3)
show-warning-will-overstep = { $side }: лимит времени на ход { $move } уже превышен на { $days }, этим ходом контроль времени будет превышен (51.4.3)
show-warning-last-day-mine = До вашего хода { $move } не осталось ни дня: отправленный сегодня, он уложится в лимит, отправленный позже — нет (51.4.3)
show-warning-last-day = { $side }: до хода { $move } не осталось ни дня (51.4.3)
show-warning = Внимание: { $text }
# $rules: регламент (article51, postal104); $moves/$days: контроль времени.
show-heading = { $id } — { $event }: { $white } – { $black }   (начата { $start }, { $rules }, контроль { $moves }/{ $days })
# $color: white или black, как записано в партии.
show-you-play-arbiter = Вы играете { $color ->
    [white] белыми
    [black] чёрными
   *[other] { $color }
} против { $opponent }; арбитр { $arbiter }.
show-you-play-friendly = Вы играете { $color ->
    [white] белыми
    [black] чёрными
   *[other] { $color }
} против { $opponent }; партия товарищеская, арбитра нет.
show-trusted = Приняты без проверки адреса: { $addresses }.
show-finished-why = Партия окончена: { $result } ({ $why })
show-finished = Партия окончена: { $result }
show-suspended = Партия прервана: заявление о просрочке времени ждёт решения арбитра
show-your-move = Ваш ход
show-waiting = Ждём хода партнёра
show-before-ccmail = до того, как партию стал вести ccmail
show-move-dates = получен { $received }  отправлен { $sent }  { $count ->
    [one] { $count } день
    [few] { $count } дня
   *[many] { $count } дней
}
show-days-used = Затрачено дней к тому времени: белые { $white }, чёрные { $black }
# $days: число дней («12 дней»); остальные значения — числа дней.
# $on_break: «yes», пока сторона на перерыве.
show-clock = { $side }: { $days } + { $penalty } { $penalty ->
    [one] штрафной
   *[many] штрафных
} = { $total } из { $limit } к ходу { $control }; осталось { $left }{ $on_break ->
    [yes] {" "}(сейчас перерыв)
   *[no] {""}
}
show-running = Идёт время на ожидаемый ход: { $count ->
    [one] { $count } день
    [few] { $count } дня
   *[many] { $count } дней
}
show-deadlines = Сроки:
# После срока, который закрыт уже отправленным повтором хода.
show-deadline-sent = — отправлено
show-deadline-queued = — в очереди, ещё не отправлено
show-deadline-repeat = повторить наш ход с копией арбитру (51.5.1)
show-deadline-repeat-friendly = повторить наш ход только партнёру: арбитра нет (51.5.1)
show-deadline-arbiter-cc = осталось 5 дней или меньше: переписка идёт с копией арбитру (51.4.10)
show-deadline-arbiter-cc-friendly = осталось 5 дней или меньше: копию отправлять некому, арбитра нет (51.4.10)
show-deadline-silence = 40 дней без хода (51.5.3)
show-deadline-silence-friendly = 40 дней без хода: сообщать некому, арбитра нет (51.5.3)
show-deadline-claim = последний день для заявления о просрочке времени (51.6.1)
show-deadline-claim-friendly = контроль времени превышен: заявлять некому, арбитра нет (51.6.1)
show-deadline-correction = отправить запрос на исправление (51.3.4)
show-deadline = срок

## Чем окончилась партия ($side: Белые или Чёрные)

show-ending-checkmate = Мат
show-ending-stalemate = Пат
show-ending-insufficient-material = Ничья: недостаточно материала
show-ending-resignation = { $side } сдались
show-ending-agreement = Ничья по соглашению
show-ending-time-forfeit = { $side } проиграли по времени
show-ending-adjudication = Результат определил арбитр

## Партия, которую не удаётся прочесть

show-not-a-colour = { $name } — не цвет (white или black)
show-move-does-not-replay = ход { $ply } ({ $uci }) партии { $game } не воспроизводится
show-game-in-database = партия { $game } в базе данных
show-clock-of-game = подсчёт времени партии { $game }

## outbox

outbox-empty = Ничто не ждёт отправки, неудачных отправок нет. `ccmail outbox --all` покажет и отправленное.
outbox-empty-all = Очередь на отправку пуста: писем в ней ещё не было.
# Столбцы `ccmail outbox`.
outbox-column-id = №
outbox-column-game = ПАРТИЯ
outbox-column-kind = ЧТО
outbox-column-state = СОСТОЯНИЕ
outbox-column-queued = В ОЧЕРЕДИ С
outbox-column-to = КОМУ
# После адресов To письма.
outbox-cc = (копия { $addresses })
outbox-state-queued = в очереди
outbox-state-retrying = ждёт повтора
outbox-state-failed = не удалось
outbox-state-sent = отправлено
outbox-detail-queued = ещё не отправлялось (срок { $next }): его отправит демон (`ccmail run`) или следующая команда, которая отправляет почту
outbox-detail-retrying = неудачных попыток — { $count }, последняя: { $error }; следующая попытка { $next }
outbox-detail-failed = не удалось отправить, больше попыток не будет: { $error }
outbox-detail-sent = отправлено { $at }
