# mime
# What the MIME decoder had to work around in a message (ccmail-mail's MimeNote), shown by
# `ccmail parse`: each text is the note's own English, byte for byte. Values from the
# message (a date, a header's name, a charset label, a boundary) pass through as they are,
# quoted where the English quotes them.

## Which text a note is about ($whose below)
mime-whose-body = the message body
# $type: the part's MIME type (text/html).
mime-whose-part = the { $type } part
mime-whose-word = an encoded word in a header

## Headers
# $value: the field's value as written, in quotes.
mime-bad-date = the Date date { $value } could not be read
mime-bad-received-date = the topmost Received date { $value } could not be read
# $field: the header field's name (Subject).
mime-raw-header-bytes = the { $field } header has raw 8-bit bytes that are not UTF-8; read as windows-1251
mime-unclosed-address = an address header ends inside a quote, comment or <…>: { $value }

## Parts
# $max: how many levels (parts) are read at most.
mime-too-deep = the MIME parts are nested more than { $max } levels deep; the deeper parts were not read
mime-too-many-parts = the message has more than { $max } MIME parts; the rest were not read
# $type: the multipart's MIME type (multipart/mixed); $boundary in quotes.
mime-no-boundary = a { $type } part has no boundary; its body was read as plain text
mime-no-part-found = no part of the { $type } was found (boundary { $boundary }); its body was read as plain text
mime-no-closing-boundary = the { $type } has no closing boundary; the message may be cut short
mime-text-from-attachment = the message has no text of its own; the text was taken from an attached text file
mime-no-text = the message has no readable text part

## Encodings and charsets
mime-broken-base64 = { $whose } has broken base64; it was decoded as far as it goes
# $encoding: the Content-Transfer-Encoding, lower case, in quotes.
mime-unknown-encoding = { $whose } has the unknown transfer encoding { $encoding }; it was read as is
mime-no-charset = { $whose } has no charset; it is not UTF-8, so it was read as windows-1251
# $label: the charset as the message names it; $read_as: utf8 or windows-1251, how the
# text was read instead.
mime-eight-bit = { $whose } says charset { $label } but has 8-bit bytes; { $read_as ->
    [utf8] it was read as UTF-8
   *[other] it is not UTF-8, so it was read as windows-1251
}
mime-invalid-bytes = { $whose } has bytes that are not valid { $label }; they were replaced with U+FFFD
# $label in quotes.
mime-unknown-charset = { $whose } says charset { $label }, which is not known; { $read_as ->
    [utf8] it was read as UTF-8
   *[other] it is not UTF-8, so it was read as windows-1251
}
