# errors-store: ошибки хранилища (StoreError из ccmail-store).
err-store-open = не удаётся открыть базу данных { $path }: { $reason }
err-store-create = не удаётся создать файл базы данных { $path }: { $error }
err-store-migrate = не удаётся обновить базу данных до новой версии: { $error }
err-store-sql = ошибка базы данных: { $error }
err-store-corrupt = ccmail не может прочитать { $what }: в базе данных они записаны в непонятном виде
err-store-corrupt-moves = ходы партии { $game }
err-store-corrupt-attached = записи, относящиеся к партии { $game } (запись вида { $kind })
# Неполадка, с которой пользователь может что-то сделать, затем слова самого SQLite.
err-store-trouble-and-said = { $trouble } ({ $said })
err-store-sqlite-says = SQLite: { $message }, код { $code }
err-store-disk-full = диск заполнен
err-store-read-only-database = база данных доступна только для чтения (права на файл или файловая система только для чтения)
err-store-disk-failed = ошибка чтения или записи на диск
err-store-cant-open-file = не удаётся открыть файл базы данных
err-store-read-only-file-system = файловая система доступна только для чтения
err-store-no-permission = нет прав на запись в папку файла
