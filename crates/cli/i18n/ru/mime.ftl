# mime: что разбору MIME пришлось обойти в письме (MimeNote из ccmail-mail); показывает
# `ccmail parse`. Значения из письма (дата, имя заголовка, кодировка, граница) подставляются
# как есть, в кавычках там, где их кавычит английский текст.

## О каком тексте речь ($whose ниже; стоит в начале, перед двоеточием)
mime-whose-body = текст письма
# $type: MIME-тип части (text/html).
mime-whose-part = часть { $type }
mime-whose-word = закодированное слово в заголовке

## Заголовки
# $value: значение поля как есть, в кавычках.
mime-bad-date = не удалось прочитать дату в заголовке Date: { $value }
mime-bad-received-date = не удалось прочитать дату в верхнем заголовке Received: { $value }
# $field: имя поля заголовка (Subject).
mime-raw-header-bytes = в заголовке { $field } есть 8-битные байты не в UTF-8; прочитан как windows-1251
mime-unclosed-address = адресный заголовок обрывается внутри кавычек, комментария или <…>: { $value }

## Части
# $max: сколько уровней (частей) читается самое большее.
mime-too-deep = части MIME вложены глубже { $max ->
    [one] { $max } уровня
    [few] { $max } уровней
   *[many] { $max } уровней
}; более глубокие части не прочитаны
mime-too-many-parts = в письме больше { $max ->
    [one] { $max } части
    [few] { $max } частей
   *[many] { $max } частей
} MIME; остальные не прочитаны
# $type: MIME-тип составной части (multipart/mixed); $boundary в кавычках.
mime-no-boundary = у части { $type } не указана граница; её содержимое прочитано как простой текст
mime-no-part-found = в { $type } не найдено ни одной части (граница { $boundary }); содержимое прочитано как простой текст
mime-no-closing-boundary = у { $type } нет закрывающей границы; возможно, письмо обрезано
mime-text-from-attachment = в письме нет своего текста; текст взят из приложенного текстового файла
mime-no-text = в письме нет текстовой части, которую можно прочитать

## Кодировки
mime-broken-base64 = { $whose }: base64 повреждён; расшифровано столько, сколько удалось
# $encoding: Content-Transfer-Encoding строчными буквами, в кавычках.
mime-unknown-encoding = { $whose }: неизвестный способ кодирования { $encoding }; прочитано как есть
mime-no-charset = { $whose }: кодировка не указана, а текст не в UTF-8; прочитан как windows-1251
# $label: кодировка, как её называет письмо; $read_as: utf8 или windows-1251, как текст
# прочитан вместо неё.
mime-eight-bit = { $whose }: указана кодировка { $label }, но есть 8-битные байты; { $read_as ->
    [utf8] прочитано как UTF-8
   *[other] это не UTF-8, поэтому прочитано как windows-1251
}
mime-invalid-bytes = { $whose }: есть байты, недопустимые в { $label }; они заменены на U+FFFD
# $label в кавычках.
mime-unknown-charset = { $whose }: неизвестная кодировка { $label }; { $read_as ->
    [utf8] прочитано как UTF-8
   *[other] это не UTF-8, поэтому прочитано как windows-1251
}
