"""The catalogue: every user-visible string in English, Polish and Russian.

Keyed by message id; each entry is ``(English, Polish, Russian)``.  Fields in
braces are filled by :func:`client.i18n.tr`; every translation of a message
must use the same fields (a test checks it).  System Launch card names follow
the Russian original of the rules (Фаервол, Сбой!, Апгрейд!).
"""

from __future__ import annotations

from .anomaly_maze.messages import MESSAGES as MAZE_MESSAGES
from .collective_conflict.messages import MESSAGES as CC_MESSAGES

LANGUAGES = ("en", "pl", "ru")

_M: dict[str, tuple[str, str, str]] = {
    # -- the program -----------------------------------------------------------
    "title.your_turn": ("your turn", "twój ruch", "ваш ход"),
    "title.waiting": ("waiting", "czekanie", "ожидание"),
    "title.over": ("game over", "koniec gry", "игра окончена"),
    "app.title": ("Sealed Table", "Sealed Table", "Sealed Table"),
    "app.tagline": (
        "Card and board games among friends, with no server anyone has to trust.",
        "Gry karciane i planszowe wśród przyjaciół, bez serwera, któremu trzeba ufać.",
        "Карточные и настольные игры с друзьями без сервера, которому нужно доверять.",
    ),
    "menu.game": ("&Game", "&Gra", "&Игра"),
    "menu.help": ("&Help", "Pomo&c", "&Справка"),
    "menu.rules": ("Rules", "Zasady", "Правила"),
    "menu.rules_of": ("Rules: {game}", "Zasady: {game}", "Правила: {game}"),
    "menu.settings": ("Settings…", "Ustawienia…", "Настройки…"),
    "menu.open_replay": ("Open a saved game…", "Otwórz zapisaną grę…", "Открыть сохранённую игру…"),
    "menu.lobby": ("Back to the lobby", "Wróć do lobby", "Вернуться в лобби"),
    "menu.quit": ("Quit", "Zakończ", "Выход"),
    "lang.en": ("English", "English", "English"),
    "lang.pl": ("Polski", "Polski", "Polski"),
    "lang.ru": ("Русский", "Русский", "Русский"),
    "common.error": ("Something went wrong", "Coś poszło nie tak", "Что-то пошло не так"),
    "common.close": ("Close", "Zamknij", "Закрыть"),
    "common.ok": ("OK", "OK", "ОК"),
    "common.cancel": ("Cancel", "Anuluj", "Отмена"),
    "common.yes": ("Yes", "Tak", "Да"),
    "common.no": ("No", "Nie", "Нет"),
    # -- games --------------------------------------------------------------
    "game.system-launch": ("System Launch", "Start Systemu", "Запуск системы"),
    "game.collective-conflict": ("Collective Conflict", "Konflikt Kolektywów", "Коллективный конфликт"),
    "game.anomaly-maze": ("Anomaly Maze", "Labirynt Anomalii", "Лабиринт аномалий"),
    "game.blurb.system-launch": (
        "A card game of secret hands for 2–6 players: assemble three different parts and a protection.",
        "Gra karciana z ukrytymi kartami dla 2–6 graczy: zbuduj trzy różne części i ochronę.",
        "Карточная игра с тайными руками для 2–6 игроков: соберите три разные детали и защиту.",
    ),
    "game.blurb.collective-conflict": (
        "Hex units with a hidden Decoy and hidden traps, for 2–10 players.",
        "Jednostki na heksach z ukrytą Przynętą i ukrytymi pułapkami, dla 2–10 graczy.",
        "Юниты на шестиугольниках со скрытой Приманкой и ловушками, для 2–10 игроков.",
    ),
    "game.blurb.anomaly-maze": (
        "A shifting 7×7 labyrinth with dice combat, for two.",
        "Ruchomy labirynt 7×7 z walką na kości, dla dwojga.",
        "Подвижный лабиринт 7×7 с битвами на кубиках, для двоих.",
    ),
    "game.coming": (
        "{game}: its table comes in a later version; its rules can be read already.",
        "{game}: stół do tej gry pojawi się w późniejszej wersji; zasady można już przeczytać.",
        "{game}: стол для этой игры появится в следующей версии; правила уже можно прочитать.",
    ),
    # -- lobby -----------------------------------------------------------------
    "lobby.welcome": ("Welcome, {name}!", "Witaj, {name}!", "Добро пожаловать, {name}!"),
    "lobby.local.title": ("Play against the computer", "Graj z komputerem", "Игра с компьютером"),
    "lobby.local.text": (
        "On this machine, no network needed: bots take the other seats.",
        "Na tym komputerze, bez sieci: pozostałe miejsca zajmują boty.",
        "На этом компьютере, без сети: остальные места занимают боты.",
    ),
    "lobby.game": ("Game", "Gra", "Игра"),
    "lobby.players": ("Players", "Gracze", "Игроки"),
    "lobby.start": ("Start the game", "Rozpocznij grę", "Начать игру"),
    "lobby.read_rules": ("Read the rules", "Przeczytaj zasady", "Прочитать правила"),
    "lobby.lan.title": ("Game on the local network", "Gra w sieci lokalnej", "Игра по локальной сети"),
    "lobby.lan.text": (
        "Host a game here, or join one that a friend hosts on the same network.",
        "Załóż grę tutaj albo dołącz do gry założonej przez znajomego w tej samej sieci.",
        "Создайте игру здесь или присоединитесь к игре друга в той же сети.",
    ),
    "lobby.lan.host": ("Host a LAN game", "Załóż grę w sieci lokalnej", "Создать игру в локальной сети"),
    "lobby.lan.search": ("Search the network", "Szukaj w sieci", "Искать в сети"),
    "lobby.lan.join": ("Join the selected game", "Dołącz do wybranej gry", "Присоединиться к выбранной игре"),
    "lobby.lan.none": (
        "No games found on the local network yet.",
        "Nie znaleziono jeszcze gier w sieci lokalnej.",
        "В локальной сети игр пока не найдено.",
    ),
    "lobby.lan.found": ("Relays found: {count}", "Znalezione przekaźniki: {count}", "Найдено ретрансляторов: {count}"),
    "lobby.lan.searching": ("Searching the network…", "Szukanie w sieci…", "Поиск в сети…"),
    "lobby.net.title": ("Play over the internet", "Graj przez internet", "Игра через интернет"),
    "lobby.net.text": (
        "Connect to a relay and enter the room code your host gave you.",
        "Połącz się z przekaźnikiem i wpisz kod pokoju od gospodarza.",
        "Подключитесь к ретранслятору и введите код комнаты, полученный от хозяина.",
    ),
    "lobby.net.relay": ("Relay address", "Adres przekaźnika", "Адрес ретранслятора"),
    "lobby.net.room": ("Room code or invitation", "Kod pokoju lub zaproszenie", "Код комнаты или приглашение"),
    "lobby.net.join": ("Join the room", "Dołącz do pokoju", "Войти в комнату"),
    "lobby.net.relay_hint": (
        "host:port, e.g. relay.example.org:1883",
        "host:port, np. relay.example.org:1883",
        "хост:порт, например relay.example.org:1883",
    ),
    "lobby.net.room_hint": (
        "e.g. KXPRTA, or sealed://relay.example.org:1883/KXPRTA#…",
        "np. KXPRTA albo sealed://relay.example.org:1883/KXPRTA#…",
        "например KXPRTA или sealed://relay.example.org:1883/KXPRTA#…",
    ),
    "lobby.busy": ("Connecting to {address}…", "Łączenie z {address}…", "Подключение к {address}…"),
    "lobby.joined": (
        "Joined room {code} on {address}: {taken} of {total} seats taken.",
        "Dołączono do pokoju {code} na {address}: zajęte miejsca {taken} z {total}.",
        "Вы в комнате {code} на {address}: занято мест {taken} из {total}.",
    ),
    "lobby.hosting": (
        "Room {code} is open at {address}: {taken} of {total} seats taken. Tell your friends the code.",
        "Pokój {code} jest otwarty na {address}: zajęte miejsca {taken} z {total}. Podaj znajomym kod.",
        "Комната {code} открыта на {address}: занято мест {taken} из {total}. Сообщите друзьям код.",
    ),
    "lobby.waiting_seat": (
        "Waiting for the host of room {code} to give you a seat…",
        "Czekamy, aż gospodarz pokoju {code} przydzieli ci miejsce…",
        "Ждём, пока хозяин комнаты {code} даст вам место…",
    ),
    "lobby.net.host": (
        "Open a room on this relay",
        "Otwórz pokój na tym przekaźniku",
        "Открыть комнату на этом ретрансляторе",
    ),
    "lobby.lan.room": (
        "{game} — {host} ({taken}/{total}) at {address}",
        "{game} — {host} ({taken}/{total}) na {address}",
        "{game} — {host} ({taken}/{total}) на {address}",
    ),
    "lobby.lan.rooms_found": (
        "Relays found: {relays}; open rooms: {rooms}",
        "Znalezione przekaźniki: {relays}; otwarte pokoje: {rooms}",
        "Найдено ретрансляторов: {relays}; открытых комнат: {rooms}",
    ),
    "lobby.saved_games": ("Saved games", "Zapisane gry", "Сохранённые игры"),
    "level.memory": ("Remembering (strongest)", "Pamiętający (najsilniejszy)", "Запоминающий (самый сильный)"),
    "bot.fallback": ("Bot", "Bot", "Бот"),
    "bot.names": ("Ada,Boris,Celina,Dmitri,Ewa", "Ada,Borys,Celina,Dymitr,Ewa", "Ада,Борис,Селина,Дмитрий,Ева"),
    # -- network errors ----------------------------------------------------------
    "net.bad-address": (
        "“{address}” is not a relay address. Write it as host or host:port, for example relay.example.org:1883.",
        "„{address}” to nie jest adres przekaźnika. Wpisz host lub host:port, np. relay.example.org:1883.",
        "«{address}» — это не адрес ретранслятора. Укажите хост или хост:порт, например relay.example.org:1883.",
    ),
    "net.bad-room": (
        "“{code}” is not a room code: a room code is 4 to 12 letters or digits.",
        "„{code}” to nie jest kod pokoju: kod ma od 4 do 12 liter lub cyfr.",
        "«{code}» — это не код комнаты: код состоит из 4–12 букв или цифр.",
    ),
    "net.unreachable": (
        "Nobody answered at {address}. Check the address and the port, and that the relay is running.",
        "Nikt nie odpowiada pod adresem {address}. Sprawdź adres i port oraz czy przekaźnik działa.",
        "По адресу {address} никто не отвечает. Проверьте адрес и порт и что ретранслятор запущен.",
    ),
    "net.timeout": (
        "{address} did not answer in time. The relay may be down, or a firewall may block it.",
        "{address} nie odpowiedział na czas. Przekaźnik może nie działać albo blokuje go zapora.",
        "{address} не ответил вовремя. Возможно, ретранслятор выключен или его блокирует файрвол.",
    ),
    "net.not-a-relay": (
        "Something answers at {address}, but it is not a Sealed Table relay (not an MQTT broker).",
        "Pod adresem {address} coś odpowiada, ale to nie jest przekaźnik Sealed Table (nie broker MQTT).",
        "По адресу {address} что-то отвечает, но это не ретранслятор Sealed Table (не MQTT-брокер).",
    ),
    "net.not-trusted": (
        "The certificate of the relay {address} is not trusted. If the relay uses its own CA, give its CA file "
        "in Settings. ({reason})",
        "Certyfikat przekaźnika {address} nie jest zaufany. Jeśli przekaźnik używa własnego CA, podaj plik CA "
        "w Ustawieniach. ({reason})",
        "Сертификату ретранслятора {address} нет доверия. Если у ретранслятора свой центр сертификации, укажите "
        "его файл CA в настройках. ({reason})",
    ),
    "net.login-needed": (
        "The relay {address} needs a login: write the address as user:password@host (the password is kept "
        "in a file only you can read).",
        "Przekaźnik {address} wymaga logowania: wpisz adres jako użytkownik:hasło@host (hasło jest zapisane "
        "w pliku, który możesz czytać tylko ty).",
        "Ретранслятору {address} нужен вход: укажите адрес как пользователь:пароль@хост (пароль хранится "
        "в файле, который можете читать только вы).",
    ),
    "net.wrong-login": (
        "Wrong password (or user name) for the relay {address}.",
        "Złe hasło (lub nazwa użytkownika) dla przekaźnika {address}.",
        "Неверный пароль (или имя пользователя) для ретранслятора {address}.",
    ),
    "net.not-websocket": (
        "{address} is a web server, not an MQTT WebSocket endpoint. Check the path (often /mqtt) and the port.",
        "{address} to serwer WWW, a nie punkt MQTT przez WebSocket. Sprawdź ścieżkę (często /mqtt) i port.",
        "{address} — это веб-сервер, а не точка MQTT через WebSocket. Проверьте путь (часто /mqtt) и порт.",
    ),
    "net.wrong-transport": (
        "The relay answers, but not the way the address says: {reason}",
        "Przekaźnik odpowiada, ale nie tak, jak mówi adres: {reason}",
        "Ретранслятор отвечает, но не так, как указано в адресе: {reason}",
    ),
    "net.no-such-name": (
        "The name in {address} does not resolve. Check the spelling of the relay's address.",
        "Nazwa w {address} nie istnieje. Sprawdź pisownię adresu przekaźnika.",
        "Имя в {address} не находится. Проверьте написание адреса ретранслятора.",
    ),
    "net.refused": (
        "The relay at {address} refused the connection (code {code}).",
        "Przekaźnik {address} odrzucił połączenie (kod {code}).",
        "Ретранслятор {address} отклонил подключение (код {code}).",
    ),
    "net.room-unknown": (
        "There is no room {code} on this relay. Check the code with your host.",
        "Na tym przekaźniku nie ma pokoju {code}. Sprawdź kod u gospodarza.",
        "На этом ретрансляторе нет комнаты {code}. Уточните код у хозяина игры.",
    ),
    "net.room-full": (
        "Room {code} is full: every seat is taken.",
        "Pokój {code} jest pełny: wszystkie miejsca są zajęte.",
        "Комната {code} заполнена: все места заняты.",
    ),
    "net.peer-gone": (
        "A player has gone: their connection was lost and did not come back.",
        "Jeden z graczy zniknął: jego połączenie zostało zerwane i nie wróciło.",
        "Один из игроков пропал: его соединение оборвалось и не восстановилось.",
    ),
    "net.relay-missing": (
        "Network play is not available in this version yet. Play against the computer meanwhile.",
        "Gra sieciowa nie jest jeszcze dostępna w tej wersji. Na razie zagraj z komputerem.",
        "Сетевая игра в этой версии пока недоступна. А пока сыграйте с компьютером.",
    ),
    "net.relay-failed": (
        "The relay at {address} reported a problem: {reason}",
        "Przekaźnik {address} zgłosił problem: {reason}",
        "Ретранслятор {address} сообщил о проблеме: {reason}",
    ),
    "net.rooms-missing": (
        "The relay runs at {address} and friends on the network can find it; "
        "opening a room there is not available in this version yet.",
        "Przekaźnik działa pod adresem {address} i znajomi w sieci mogą go znaleźć; "
        "zakładanie pokoju nie jest jeszcze dostępne w tej wersji.",
        "Ретранслятор работает по адресу {address}, и друзья в сети могут его найти; "
        "создание комнаты в этой версии пока недоступно.",
    ),
    "net.join-missing": (
        "The relay at {address} answers, but joining a room is not available in this version yet.",
        "Przekaźnik {address} odpowiada, ale dołączanie do pokoju nie jest jeszcze dostępne w tej wersji.",
        "Ретранслятор {address} отвечает, но вход в комнату в этой версии пока недоступен.",
    ),
    "net.host-failed": (
        "The relay could not be started on this computer: {reason}",
        "Nie udało się uruchomić przekaźnika na tym komputerze: {reason}",
        "Не удалось запустить ретранслятор на этом компьютере: {reason}",
    ),
    "net.reconnecting": (
        "The connection to the relay was lost: reconnecting… The game waits, nothing is lost.",
        "Połączenie z przekaźnikiem zostało przerwane: łączenie ponowne… Gra czeka, nic nie ginie.",
        "Связь с ретранслятором потеряна: переподключение… Игра ждёт, ничего не теряется.",
    ),
    "net.rejected": (
        "Messages refused so far: {n} (damaged or forged data from the relay; the game is not affected).",
        "Odrzucone wiadomości: {n} (uszkodzone lub podrobione dane z przekaźnika; gra jest bezpieczna).",
        "Отклонено сообщений: {n} (повреждённые или поддельные данные от ретранслятора; игра не затронута).",
    ),
    "net.lan-missing": (
        "Finding games on the local network is not available in this version yet.",
        "Wyszukiwanie gier w sieci lokalnej nie jest jeszcze dostępne w tej wersji.",
        "Поиск игр в локальной сети в этой версии пока недоступен.",
    ),
    "net.lan-failed": (
        "Searching the local network failed: {reason}",
        "Wyszukiwanie w sieci lokalnej nie powiodło się: {reason}",
        "Поиск в локальной сети не удался: {reason}",
    ),
    # -- settings -------------------------------------------------------------
    "settings.title": ("Settings", "Ustawienia", "Настройки"),
    "settings.name": ("Your name", "Twoje imię", "Ваше имя"),
    "settings.language": ("Language", "Język", "Язык"),
    "settings.speed": ("Bot speed", "Szybkość botów", "Скорость ботов"),
    "settings.relays": ("Remembered relays", "Zapamiętane przekaźniki", "Запомненные ретрансляторы"),
    "settings.forget": ("Forget the selected relay", "Zapomnij wybrany przekaźnik", "Забыть выбранный ретранслятор"),
    "settings.relay_ca_file": (
        "CA file (relay's own)",
        "Plik CA (własny przekaźnika)",
        "Файл CA (свой у ретранслятора)",
    ),
    "settings.relay_cert_file": ("Client certificate", "Certyfikat klienta", "Сертификат клиента"),
    "settings.relay_key_file": ("Client key", "Klucz klienta", "Ключ клиента"),
    "settings.relay_password": ("Relay password", "Hasło przekaźnika", "Пароль ретранслятора"),
    "settings.passwords_kept": (
        "For the relay selected above. Passwords are kept in {path}, a file only you can read.",
        "Dla przekaźnika wybranego powyżej. Hasła są zapisane w {path}, pliku, który możesz czytać tylko ty.",
        "Для выбранного выше ретранслятора. Пароли хранятся в {path}, файле, который можете читать только вы.",
    ),
    "settings.where": ("Kept in {path}", "Zapisane w {path}", "Хранится в {path}"),
    "settings.save_failed": (
        "The settings could not be saved: {reason}",
        "Nie udało się zapisać ustawień: {reason}",
        "Не удалось сохранить настройки: {reason}",
    ),
    "speed.0": ("Instant", "Natychmiast", "Мгновенно"),
    "speed.250": ("Fast", "Szybko", "Быстро"),
    "speed.600": ("Normal", "Normalnie", "Обычно"),
    "speed.1200": ("Slow", "Wolno", "Медленно"),
    # -- rules ---------------------------------------------------------------
    "rules.title": ("Rules — {game}", "Zasady — {game}", "Правила — {game}"),
    "rules.paused": (
        "The game is paused while you read. Nothing changes until you close this window.",
        "Gra jest wstrzymana, gdy czytasz. Nic się nie zmieni, dopóki nie zamkniesz tego okna.",
        "Игра на паузе, пока вы читаете. Ничего не изменится, пока вы не закроете это окно.",
    ),
    "rules.missing": (
        "The rules page of {game} is not installed with this copy of the program (looked in: {where}).",
        "Strona z zasadami gry {game} nie jest zainstalowana z tą kopią programu (szukano w: {where}).",
        "Страница правил игры «{game}» не установлена вместе с программой (искали в: {where}).",
    ),
    "rules.english_only": (
        "The rules pages are written in English.",
        "Strony z zasadami są napisane po angielsku.",
        "Страницы правил написаны на английском языке.",
    ),
    "rules.back": ("Back to the game", "Wróć do gry", "Вернуться к игре"),
    # -- cards ------------------------------------------------------------------
    "card.Processor": ("Processor", "Procesor", "Процессор"),
    "card.RAM": ("RAM", "Pamięć RAM", "Оперативная память"),
    "card.HardDrive": ("Hard Drive", "Dysk twardy", "Жёсткий диск"),
    "card.GraphicsCard": ("Graphics Card", "Karta graficzna", "Видеокарта"),
    "card.Antivirus": ("Antivirus", "Antywirus", "Антивирус"),
    "card.Firewall": ("Firewall", "Zapora", "Фаервол"),
    "card.Password": ("Password", "Hasło", "Пароль"),
    "card.Crash": ("Crash!", "Awaria!", "Сбой!"),
    "card.HackerAttack": ("Hacker Attack!", "Atak hakera!", "Хакерская атака!"),
    "card.Phishing": ("Phishing!", "Phishing!", "Фишинг!"),
    "card.Upgrade": ("Upgrade!", "Ulepszenie!", "Апгрейд!"),
    "cat.part": ("Part", "Część", "Деталь"),
    "cat.protection": ("Protection", "Ochrona", "Защита"),
    "cat.event": ("Event", "Zdarzenie", "Событие"),
    # -- the table -----------------------------------------------------------------
    "table.deck": ("Deck: {n}", "Talia: {n}", "Колода: {n}"),
    "table.deck_empty": ("Deck empty", "Talia pusta", "Колода пуста"),
    "table.hand": ("Hand: {n}", "Ręka: {n}", "Рука: {n}"),
    "table.system": ("System", "System", "Система"),
    "table.discard": ("Discard", "Odrzucone", "Сброс"),
    "table.your_hand": ("Your hand: {n}", "Twoja ręka: {n}", "Ваша рука: {n}"),
    "table.you": ("{name} (you)", "{name} (ty)", "{name} (вы)"),
    "table.skips": ("skips the next turn", "traci następną turę", "пропускает следующий ход"),
    "table.left": ("has left the game", "opuścił grę", "покинул игру"),
    "table.round": ("Round {n}", "Runda {n}", "Раунд {n}"),
    "table.turn_you": ("Your turn", "Twoja tura", "Ваш ход"),
    "table.turn_of": ("{name}'s turn", "Tura gracza {name}", "Ходит {name}"),
    "table.empty_row": ("empty", "pusto", "пусто"),
    "table.log": ("Game log", "Dziennik gry", "Журнал игры"),
    "table.actions": ("Your move", "Twój ruch", "Ваш ход"),
    "table.launched": ("System launched!", "System uruchomiony!", "Система запущена!"),
    "table.launched_by": ("{name} launched the system!", "{name} uruchamia system!", "{name} запускает систему!"),
    "table.to_report": ("See the report", "Zobacz raport", "Смотреть отчёт"),
    "table.hacker_view": (
        "{name}'s hand — only you can see it",
        "Ręka gracza {name} — widzisz ją tylko ty",
        "Рука игрока {name} — её видите только вы",
    ),
    "table.leave": ("Leave the game", "Opuść grę", "Покинуть игру"),
    "confirm.abandon_title": ("Leave the game?", "Opuścić grę?", "Покинуть игру?"),
    "confirm.abandon_local": (
        "This game is still running. Leave it? A game against the computer is not kept: it cannot be resumed.",
        "Ta gra wciąż trwa. Opuścić ją? Gra z komputerem nie jest zachowywana: nie da się do niej wrócić.",
        "Игра ещё идёт. Покинуть её? Игра с компьютером не сохраняется: вернуться к ней будет нельзя.",
    ),
    "confirm.abandon_net": (
        "This game is still running. Leave the table? The others play on; once your answer time has run out "
        "they may declare your seat gone.",
        "Ta gra wciąż trwa. Odejść od stołu? Pozostali grają dalej; gdy minie twój czas na odpowiedź, "
        "mogą uznać twoje miejsce za opuszczone.",
        "Игра ещё идёт. Выйти из-за стола? Остальные продолжат; когда истечёт ваше время на ответ, "
        "они смогут признать ваше место покинутым.",
    ),
    "table.leave_confirm_two": (
        "Leave this game? With two players, leaving ends it: your opponent wins.",
        "Opuścić tę grę? Przy dwóch graczach odejście ją kończy: wygrywa przeciwnik.",
        "Покинуть игру? Когда игроков двое, уход её завершает: побеждает соперник.",
    ),
    "table.leave_confirm_net": (
        "Leave this game? Your seat is given up for good; the other players play on without you.",
        "Opuścić tę grę? Oddajesz swoje miejsce na stałe; pozostali gracze grają dalej bez ciebie.",
        "Покинуть игру? Вы навсегда отказываетесь от места; остальные игроки продолжат без вас.",
    ),
    "table.leave_confirm": (
        "Leave this game? The bots will play on without you.",
        "Opuścić tę grę? Boty zagrają dalej bez ciebie.",
        "Покинуть игру? Боты продолжат без вас.",
    ),
    "phase.setup": ("Shuffling and dealing", "Tasowanie i rozdawanie", "Тасовка и раздача"),
    "phase.draw": ("Phase 1: take a resource", "Faza 1: weź zasób", "Фаза 1: получить ресурс"),
    "phase.action": ("Phase 2: take an action", "Faza 2: wykonaj akcję", "Фаза 2: выполнить действие"),
    "phase.discard": (
        "Phase 3: discard down to {limit}",
        "Faza 3: odrzuć do {limit} kart",
        "Фаза 3: сбросить до {limit} карт",
    ),
    "phase.hacker": ("Hacker Attack!", "Atak hakera!", "Хакерская атака!"),
    "phase.crash": ("Crash!", "Awaria!", "Сбой!"),
    "phase.over": ("Game over", "Koniec gry", "Игра окончена"),
    "hint.action": (
        "Choose a card in your hand to see what you can do with it, or do nothing.",
        "Wybierz kartę z ręki, aby zobaczyć, co możesz z nią zrobić, albo nic nie rób.",
        "Выберите карту в руке, чтобы увидеть, что с ней можно сделать, или ничего не делайте.",
    ),
    "hint.discard": (
        "You hold {n} cards, more than {limit}: choose one to discard.",
        "Masz {n} kart, więcej niż {limit}: wybierz jedną do odrzucenia.",
        "У вас {n} карт, больше {limit}: выберите карту для сброса.",
    ),
    "hint.crash": (
        "Crash! hit you: choose which Part of your System to discard.",
        "Awaria! trafiła w ciebie: wybierz, którą Część ze swojego Systemu odrzucić.",
        "Против вас сыграли «Сбой!»: выберите, какую Деталь из своей Системы сбросить.",
    ),
    "hint.hacker": (
        "You see {name}'s hand. Take one card into your hand, or take nothing.",
        "Widzisz rękę gracza {name}. Weź jedną kartę albo nie bierz nic.",
        "Вы видите руку игрока {name}. Возьмите одну карту или ничего не берите.",
    ),
    "hint.wait": ("Waiting for {name}…", "Czekamy na gracza {name}…", "Ждём игрока {name}…"),
    "hint.no_action": (
        "This card cannot be used now.",
        "Tej karty nie można teraz użyć.",
        "Эту карту сейчас нельзя использовать.",
    ),
    "act.build": ("Build {card}", "Zbuduj: {card}", "Собрать: {card}"),
    "act.upgrade": (
        "Upgrade: trade in {card}",
        "Ulepszenie: wymień „{card}”",
        "Апгрейд: обменять «{card}»",
    ),
    "act.play_on": (
        "Play {card} on {name}",
        "Zagraj „{card}” na gracza {name}",
        "Сыграть «{card}» против игрока {name}",
    ),
    "act.play_self": (
        "Play {card}: draw a card",
        "Zagraj „{card}”: dobierz kartę",
        "Сыграть «{card}»: взять карту",
    ),
    "act.pass": ("Do nothing", "Nic nie rób", "Ничего не делать"),
    "act.discard": (
        "Discard {card}",
        "Odrzuć: {card}",
        "Сбросить: {card}",
    ),
    "act.take": (
        "Take {card}",
        "Weź: {card}",
        "Взять: {card}",
    ),
    "act.take_none": ("Take nothing", "Nie bierz nic", "Ничего не брать"),
    "act.lose": ("Lose {card}", "Strać: {card}", "Сбросить {card}"),
    # -- the game log ----------------------------------------------------------
    "log.shuffled": (
        "The {n} cards are shuffled into the deck.",
        "{n} kart zostaje przetasowanych w talię.",
        "Все {n} карты перетасованы в колоду.",
    ),
    "log.reshuffled": (
        "The discard rows ({n} cards) are shuffled into a new deck.",
        "Odrzucone karty ({n}) zostają przetasowane w nową talię.",
        "Сброшенные карты ({n}) перетасованы в новую колоду.",
    ),
    "log.first": ("{name} plays first.", "{name} zaczyna.", "{name} ходит первым."),
    "log.dealt": ("Each player is dealt {n} cards.", "Każdy gracz dostaje {n} karty.", "Каждому роздано по {n} карты."),
    "log.draw_you": ("You draw {card}.", "Dobierasz: {card}.", "Вы берёте карту: {card}."),
    "log.draw": ("{name} draws a card.", "{name} dobiera kartę.", "{name} берёт карту."),
    "log.build": (
        "{name} builds {card}.",
        "{name} buduje: {card}.",
        "{name} собирает: {card}.",
    ),
    "log.upgrade": (
        "{name} upgrades: discards {card} and draws a card.",
        "{name} ulepsza: odrzuca „{card}” i dobiera kartę.",
        "{name} делает апгрейд: сбрасывает «{card}» и берёт карту.",
    ),
    "log.pass": ("{name} does nothing.", "{name} nic nie robi.", "{name} ничего не делает."),
    "log.play": (
        "{name} plays {card} on {target}.",
        "{name} zagrywa „{card}” na gracza {target}.",
        "{name} играет «{card}» против игрока {target}.",
    ),
    "log.play_self": (
        "{name} plays {card} and draws a card.",
        "{name} zagrywa „{card}” i dobiera kartę.",
        "{name} играет «{card}» и берёт карту.",
    ),
    "log.cancelled": (
        "{target}'s {card} cancels it.",
        "„{card}” gracza {target} blokuje atak.",
        "«{card}» игрока {target} отменяет атаку.",
    ),
    "log.no_effect": (
        "It has no effect on {target}.",
        "Nie działa na gracza {target}.",
        "На {target} это не действует.",
    ),
    "log.phished": (
        "{target} will skip their next turn.",
        "{target} traci następną turę.",
        "{target} пропустит следующий ход.",
    ),
    "log.looks": (
        "{name} looks at {target}'s hand.",
        "{name} ogląda rękę gracza {target}.",
        "{name} смотрит руку игрока {target}.",
    ),
    "log.take": (
        "{name} takes a card from {target}'s hand.",
        "{name} zabiera kartę z ręki gracza {target}.",
        "{name} забирает карту из руки игрока {target}.",
    ),
    "log.take_you": (
        "You take {card} from {target}'s hand.",
        "Zabierasz „{card}” z ręki gracza {target}.",
        "Вы забираете «{card}» из руки игрока {target}.",
    ),
    "log.taken_from_you": (
        "{name} takes your {card}.",
        "{name} zabiera twoją kartę „{card}”.",
        "{name} забирает вашу карту «{card}».",
    ),
    "log.take_none": (
        "{name} takes nothing from {target}'s hand.",
        "{name} nie bierze nic z ręki gracza {target}.",
        "{name} ничего не берёт из руки игрока {target}.",
    ),
    "log.crashed": (
        "{target} loses {card} from their System.",
        "{target} traci „{card}” ze swojego Systemu.",
        "{target} теряет «{card}» из своей Системы.",
    ),
    "log.discard": (
        "{name} discards {card}.",
        "{name} odrzuca „{card}”.",
        "{name} сбрасывает «{card}».",
    ),
    "log.skipped": (
        "{name} skips this turn (Phishing!).",
        "{name} traci tę turę (Phishing!).",
        "{name} пропускает ход (Фишинг!).",
    ),
    "log.launched": ("{name}: System launched!", "{name}: System uruchomiony!", "{name}: Система запущена!"),
    "log.exhausted": (
        "The deck is empty and there is nothing to reshuffle: the game ends in a draw at the end of this round.",
        "Talia jest pusta i nie ma czego tasować: gra skończy się remisem na koniec tej rundy.",
        "Колода пуста, и перетасовывать нечего: игра закончится ничьей в конце этого раунда.",
    ),
    "log.left": ("{name} has left the game.", "{name} opuszcza grę.", "{name} покидает игру."),
    "log.round": ("— Round {n} —", "— Runda {n} —", "— Раунд {n} —"),
    "log.over": ("Game over.", "Koniec gry.", "Игра окончена."),
    # -- the report ---------------------------------------------------------------
    "report.title": ("Game report", "Raport z gry", "Отчёт об игре"),
    "report.you_win": (
        "You win — System launched!",
        "Wygrywasz — System uruchomiony!",
        "Вы победили — Система запущена!",
    ),
    "report.winner": (
        "{name} wins — System launched!",
        "Wygrywa {name} — System uruchomiony!",
        "Победил(а) {name} — Система запущена!",
    ),
    "report.winner_plain": ("{name} wins.", "Wygrywa {name}.", "Победил(а) {name}."),
    "report.you_win_plain": ("You win!", "Wygrywasz!", "Вы победили!"),
    "report.draw_plain": ("A draw.", "Remis.", "Ничья."),
    "report.shared_draw": ("A shared draw: {names}.", "Wspólny remis: {names}.", "Общая ничья: {names}."),
    "report.draw": (
        "A draw: nobody launched a system.",
        "Remis: nikt nie uruchomił systemu.",
        "Ничья: никто не запустил систему.",
    ),
    "report.reason.system launched": (
        "Three different Parts and a Protection at the end of Phase 2.",
        "Trzy różne Części i Ochrona na koniec Fazy 2.",
        "Три разные Детали и Защита в конце Фазы 2.",
    ),
    "report.reason.deck exhausted": (
        "The deck ran out and could not be refilled.",
        "Talia się skończyła i nie dało się jej uzupełnić.",
        "Колода закончилась, и пополнить её было нечем.",
    ),
    "report.reason.round limit": (
        "The round limit was reached.",
        "Osiągnięto limit rund.",
        "Достигнут предел числа раундов.",
    ),
    "report.reason.last seat standing": (
        "Every other player left the game.",
        "Wszyscy pozostali gracze opuścili grę.",
        "Все остальные игроки покинули игру.",
    ),
    "report.audit": ("Fair play", "Uczciwość gry", "Честность игры"),
    "report.local_fair": (
        "This game was run on this computer by its referee, which knew every secret and applied every rule "
        "itself: it is fair by construction, so there was nothing to check. Games over the network are "
        "audited: every secret, shuffle and roll is checked at the end.",
        "Tę grę prowadził sędzia na tym komputerze, który znał każdy sekret i sam stosował każdą zasadę: "
        "jest uczciwa z samej konstrukcji, więc nie było czego sprawdzać. Gry sieciowe są audytowane: na "
        "końcu sprawdzany jest każdy sekret, każde tasowanie i każdy rzut.",
        "Эту игру вёл судья на этом компьютере: он знал все секреты и сам применял каждое правило, "
        "поэтому игра честна по построению и проверять было нечего. Сетевые игры проходят аудит: в конце "
        "проверяются каждый секрет, каждая тасовка и каждый бросок.",
    ),
    "report.net_fair": (
        "Every secret, shuffle and roll checked: fair game.",
        "Każdy sekret, tasowanie i rzut sprawdzone: gra była uczciwa.",
        "Каждый секрет, тасовка и бросок проверены: игра честная.",
    ),
    "report.auditing": (
        "The end-of-game audit is running: every secret, shuffle and roll is being checked…",
        "Trwa audyt po grze: sprawdzany jest każdy sekret, tasowanie i rzut…",
        "Идёт аудит после игры: проверяются каждый секрет, тасовка и бросок…",
    ),
    "report.cheat": (
        "{name} cheated at entry {seq}: {reason}",
        "{name} oszukiwał(a) we wpisie {seq}: {reason}",
        "{name} сжульничал(а) в записи {seq}: {reason}",
    ),
    "report.disconnected": (
        "{name} was disconnected at entry {seq} and forfeits. Silence is no proof of cheating: nobody is named.",
        "{name} rozłączył(a) się we wpisie {seq} i przegrywa walkowerem. "
        "Milczenie nie dowodzi oszustwa: nikt nie jest oskarżony.",
        "{name} отключился(-лась) на записи {seq} и получает техническое поражение. "
        "Молчание не доказывает жульничества: никто не обвинён.",
    ),
    "report.claimed": (
        "{name} was disconnected at entry {seq}: a win claimed after disconnection, not a proven result.",
        "{name} rozłączył(a) się we wpisie {seq}: wygrana ogłoszona po rozłączeniu, nie udowodniony wynik.",
        "{name} отключился(-лась) на записи {seq}: победа заявлена после отключения, это не доказанный результат.",
    ),
    "report.abandoned": (
        "The game was abandoned without a result: {reason}",
        "Gra została przerwana bez wyniku: {reason}",
        "Игра прервана без результата: {reason}",
    ),
    "report.stats": (
        "{actions} actions over {rounds} rounds.",
        "{actions} akcji w {rounds} rundach.",
        "Действий: {actions}, раундов: {rounds}.",
    ),
    "report.tables": ("Final tables", "Stoły na koniec gry", "Столы в конце игры"),
    "report.save": ("Save the game…", "Zapisz grę…", "Сохранить игру…"),
    "report.replay": ("Watch the replay", "Obejrzyj powtórkę", "Смотреть повтор"),
    "report.again": ("Play again", "Zagraj ponownie", "Сыграть ещё"),
    "report.saved": ("Saved to {path}.", "Zapisano w {path}.", "Сохранено в {path}."),
    "report.save_failed": (
        "Could not save the game: {reason}",
        "Nie udało się zapisać gry: {reason}",
        "Не удалось сохранить игру: {reason}",
    ),
    # -- replay ----------------------------------------------------------------------
    "replay.title": ("Replay — {game}", "Powtórka — {game}", "Повтор — {game}"),
    "replay.step": ("Step {i} of {n}", "Krok {i} z {n}", "Шаг {i} из {n}"),
    "replay.first": ("To the start", "Do początku", "В начало"),
    "replay.prev": ("Step back", "Krok wstecz", "Шаг назад"),
    "replay.next": ("Step forward", "Krok naprzód", "Шаг вперёд"),
    "replay.last": ("To the end", "Do końca", "В конец"),
    "replay.play": ("Play", "Odtwarzaj", "Воспроизвести"),
    "replay.pause": ("Pause", "Pauza", "Пауза"),
    "replay.full": ("Show every hand", "Pokaż wszystkie ręce", "Показать все руки"),
    "replay.full_locked": (
        "Every hand can be shown once the replay has reached the end of the game.",
        "Wszystkie ręce można pokazać, gdy powtórka dojdzie do końca gry.",
        "Все руки можно показать, когда повтор дойдёт до конца игры.",
    ),
    "replay.public": (
        "Public view: hands stay hidden, as every player saw the table.",
        "Widok publiczny: ręce są ukryte, tak jak każdy gracz widział stół.",
        "Общий вид: руки скрыты, как стол видел каждый игрок.",
    ),
    "replay.start": ("The game begins.", "Gra się zaczyna.", "Игра начинается."),
    "replay.open_failed": ("This game cannot be opened", "Nie można otworzyć tej gry", "Эту игру нельзя открыть"),
    "file.filter": (
        "Sealed Table games (*.sealed *.sealedlog)",
        "Gry Sealed Table (*.sealed *.sealedlog)",
        "Игры Sealed Table (*.sealed *.sealedlog)",
    ),
    "replay.verdict": ("Audit: {verdict}", "Audyt: {verdict}", "Аудит: {verdict}"),
    "replay.no_full": (
        "Hands stay hidden in a network game's replay.",
        "W powtórce gry sieciowej ręce pozostają ukryte.",
        "В повторе сетевой игры руки остаются скрытыми.",
    ),
    "file.not-a-game": (
        "This is not a Sealed Table game file.",
        "To nie jest plik gry Sealed Table.",
        "Это не файл игры Sealed Table.",
    ),
    "file.corrupt": (
        "The game file is damaged ({detail}).",
        "Plik gry jest uszkodzony ({detail}).",
        "Файл игры повреждён ({detail}).",
    ),
    "file.format": (
        "This game file has a format this version cannot read ({name}).",
        "Ten plik gry ma format, którego ta wersja nie potrafi odczytać ({name}).",
        "У этого файла формат, который эта версия не умеет читать ({name}).",
    ),
    "file.version": (
        "This game file comes from another version of the program (file version {version}).",
        "Ten plik gry pochodzi z innej wersji programu (wersja pliku {version}).",
        "Этот файл игры создан другой версией программы (версия файла {version}).",
    ),
    "file.unknown-game": (
        "The game “{game}” in this file is not installed.",
        "Gra „{game}” z tego pliku nie jest zainstalowana.",
        "Игра «{game}» из этого файла не установлена.",
    ),
    "file.does-not-replay": (
        "The file does not replay: it was changed or damaged (noticed at step {step}).",
        "Pliku nie da się odtworzyć: został zmieniony lub uszkodzony (wykryto w kroku {step}).",
        "Файл не воспроизводится: он изменён или повреждён (обнаружено на шаге {step}).",
    ),
    "file.signed-log": (
        "This signed game log cannot be opened: {reason}",
        "Nie można otworzyć tego podpisanego zapisu gry: {reason}",
        "Этот подписанный журнал игры нельзя открыть: {reason}",
    ),
    "file.unreadable": (
        "The file cannot be read: {reason}",
        "Nie można odczytać pliku: {reason}",
        "Не удаётся прочитать файл: {reason}",
    ),
    "file.too-big": (
        "The file is far too large to be a game file.",
        "Plik jest zbyt duży, by był plikiem gry.",
        "Файл слишком велик для файла игры.",
    ),
}

# -- rooms: seats, bots, cancel (the lobby's room panel) --------------------------------
_M.update(
    {
        "net.seat-taken": (
            "Seat {seat} of room {code} is taken. Pick another seat, or ask for any free seat.",
            "Miejsce {seat} w pokoju {code} jest zajęte. Wybierz inne albo dowolne wolne miejsce.",
            "Место {seat} в комнате {code} занято. Выберите другое или любое свободное место.",
        ),
        "net.no-such-seat": (
            "Room {code} has {total} seats: there is no seat {seat}. Pick another seat, or any free seat.",
            "Pokój {code} ma {total} miejsc: nie ma miejsca {seat}. Wybierz inne albo dowolne wolne miejsce.",
            "В комнате {code} мест: {total}, места {seat} нет. Выберите другое или любое свободное место.",
        ),
        "net.room-closed": (
            "The host closed room {code} before the game began.",
            "Gospodarz zamknął pokój {code}, zanim gra się zaczęła.",
            "Хозяин закрыл комнату {code} до начала игры.",
        ),
        "lobby.net.seat": ("Seat", "Miejsce", "Место"),
        "lobby.net.any_seat": ("Any free seat", "Dowolne wolne miejsce", "Любое свободное место"),
        "room.host_title": (
            "Your room {code} at {address}",
            "Twój pokój {code} na {address}",
            "Ваша комната {code} на {address}",
        ),
        "room.join_title": ("Room {code} at {address}", "Pokój {code} na {address}", "Комната {code} на {address}"),
        "room.seat": ("Seat {n}", "Miejsce {n}", "Место {n}"),
        "room.you": ("{name} (you)", "{name} (ty)", "{name} (вы)"),
        "room.free": ("Free — waiting for a player", "Wolne — czeka na gracza", "Свободно — ждём игрока"),
        "room.bots_only": (
            "Free — seat 1 opens the game, so only you or a bot of yours can sit here",
            "Wolne — miejsce 1 otwiera grę, więc może tu siedzieć tylko Ty albo Twój bot",
            "Свободно — место 1 открывает игру, поэтому здесь можете сидеть только вы или ваш бот",
        ),
        "room.bot": ("{name} — bot ({kind})", "{name} — bot ({kind})", "{name} — бот ({kind})"),
        "room.person": ("A player", "Gracz", "Игрок"),
        "room.choice.person": ("Wait for a player", "Czekaj na gracza", "Ждать игрока"),
        "room.choice.bot": ("Bot: {kind}", "Bot: {kind}", "Бот: {kind}"),
        "room.sit": ("Sit here", "Usiądź tutaj", "Сесть сюда"),
        "room.start": ("Start the game", "Rozpocznij grę", "Начать игру"),
        "room.start_hint": (
            "The game starts when every seat is a player or a bot: by itself when players fill the room, "
            "with “Start the game” when a seat is a bot.",
            "Gra zaczyna się, gdy na każdym miejscu jest gracz albo bot: sama, gdy pokój wypełnią gracze, "
            "a przyciskiem „Rozpocznij grę”, gdy któreś miejsce zajmuje bot.",
            "Игра начинается, когда на каждом месте игрок или бот: сама, когда комнату заполнят игроки, "
            "и кнопкой «Начать игру», если на каком-то месте бот.",
        ),
        "room.cancel": ("Cancel", "Anuluj", "Отмена"),
        "room.closed": (
            "Room {code} is closed; nobody is waiting any more.",
            "Pokój {code} jest zamknięty; nikt już nie czeka.",
            "Комната {code} закрыта; больше никто не ждёт.",
        ),
        "room.left": (
            "You left room {code}; your seat is free again.",
            "Opuszczono pokój {code}; Twoje miejsce jest znów wolne.",
            "Вы вышли из комнаты {code}; ваше место снова свободно.",
        ),
        "net.refused-by-host": (
            "The host of room {code} did not let you in.",
            "Gospodarz pokoju {code} nie wpuścił Cię.",
            "Хозяин комнаты {code} вас не впустил.",
        ),
        "net.bad-invitation": (
            "That is not an invitation: {reason}",
            "To nie jest zaproszenie: {reason}",
            "Это не приглашение: {reason}",
        ),
        "lobby.net.host_key": ("Host key", "Klucz gospodarza", "Ключ хозяина"),
        "lobby.net.host_key_hint": (
            "from the invitation, e.g. KMTX-RCAP-WHEJ-FDNQ (optional)",
            "z zaproszenia, np. KMTX-RCAP-WHEJ-FDNQ (opcjonalnie)",
            "из приглашения, например KMTX-RCAP-WHEJ-FDNQ (необязательно)",
        ),
        "lobby.net.listed": (
            "List my room on the relay (else: by invitation only)",
            "Pokaż mój pokój na liście przekaźnika (inaczej: tylko z zaproszeniem)",
            "Показывать мою комнату в списке ретранслятора (иначе: только по приглашению)",
        ),
        "lobby.lan.room_key": (
            "host key {key}, answer time {answer} s",
            "klucz gospodarza {key}, czas na odpowiedź {answer} s",
            "ключ хозяина {key}, время на ответ {answer} с",
        ),
        "room.invitation": (
            "Invitation: {link}\nTo read out: {words}",
            "Zaproszenie: {link}\nDo przeczytania: {words}",
            "Приглашение: {link}\nЧтобы продиктовать: {words}",
        ),
        "room.copy": ("Copy the invitation", "Kopiuj zaproszenie", "Скопировать приглашение"),
        "room.requests": (
            "Asking to sit down (check the key with the person):",
            "Chcą usiąść (sprawdź klucz z tą osobą):",
            "Просят места (сверьте ключ с этим человеком):",
        ),
        "room.request": (
            "{name} — key {key} — {seat}",
            "{name} — klucz {key} — {seat}",
            "{name} — ключ {key} — {seat}",
        ),
        "room.accept": ("Let in", "Wpuść", "Впустить"),
        "room.refuse": ("Turn away", "Odmów", "Отказать"),
        "room.remove": ("Remove", "Usuń", "Убрать"),
        "room.join": ("Join this room", "Dołącz do tego pokoju", "Войти в эту комнату"),
        "room.confirm": (
            "{game}, hosted by {host} — host key {key}. {taken} of {total} seats taken; "
            "answer time {answer} s. Check the key with the host, then join.",
            "{game}, gospodarz {host} — klucz gospodarza {key}. Zajęte miejsca: {taken} z {total}; "
            "czas na odpowiedź {answer} s. Sprawdź klucz z gospodarzem, potem dołącz.",
            "{game}, хозяин {host} — ключ хозяина {key}. Занято мест: {taken} из {total}; "
            "время на ответ {answer} с. Сверьте ключ с хозяином, затем входите.",
        ),
        "room.waiting_host": (
            "Waiting for {host} to let you in…",
            "Czekasz, aż {host} Cię wpuści…",
            "Ждём, пока {host} вас впустит…",
        ),
        "room.waiting_start": (
            "You sit in seat {seat}. The game begins when the host starts it.",
            "Siedzisz na miejscu {seat}. Gra zacznie się, gdy gospodarz ją rozpocznie.",
            "Вы на месте {seat}. Игра начнётся, когда хозяин её запустит.",
        ),
        # -- guide --
        "log.draw.you": ("You draw a card.", "Dobierasz kartę.", "Вы берёте карту."),
        "log.first.you": ("You play first.", "Zaczynasz.", "Вы ходите первым."),
        "log.build.you": ("You build {card}.", "Budujesz: {card}.", "Вы собираете: {card}."),
        "log.upgrade.you": (
            "You upgrade: you discard {card} and draw a card.",
            "Ulepszasz: odrzucasz „{card}” i dobierasz kartę.",
            "Вы делаете апгрейд: сбрасываете «{card}» и берёте карту.",
        ),
        "log.pass.you": ("You do nothing.", "Nic nie robisz.", "Вы ничего не делаете."),
        "log.play.you": (
            "You play {card} on {target}.",
            "Zagrywasz „{card}” na gracza {target}.",
            "Вы играете «{card}» против игрока {target}.",
        ),
        "log.play.you_target": (
            "{name} plays {card} on you.",
            "{name} zagrywa „{card}” na ciebie.",
            "{name} играет «{card}» против вас.",
        ),
        "log.play_self.you": (
            "You play {card} and draw a card.",
            "Zagrywasz „{card}” i dobierasz kartę.",
            "Вы играете «{card}» и берёте карту.",
        ),
        "log.cancelled.you": (
            "Your {card} cancels it.",
            "Twoja karta „{card}” blokuje atak.",
            "Ваша карта «{card}» отменяет атаку.",
        ),
        "log.no_effect.you": ("It has no effect on you.", "Nie działa na ciebie.", "На вас это не действует."),
        "log.phished.you": (
            "You will skip your next turn.",
            "Tracisz następną turę.",
            "Вы пропустите следующий ход.",
        ),
        "log.looks.you": (
            "You look at {target}'s hand.",
            "Oglądasz rękę gracza {target}.",
            "Вы смотрите руку игрока {target}.",
        ),
        "log.looks.you_target": (
            "{name} looks at your hand.",
            "{name} ogląda twoją rękę.",
            "{name} смотрит вашу руку.",
        ),
        "log.take.you_target": (
            "{name} takes a card from your hand.",
            "{name} zabiera kartę z twojej ręki.",
            "{name} забирает карту из вашей руки.",
        ),
        "log.take_none.you": (
            "You take nothing from {target}'s hand.",
            "Nie bierzesz nic z ręki gracza {target}.",
            "Вы ничего не берёте из руки игрока {target}.",
        ),
        "log.take_none.you_target": (
            "{name} takes nothing from your hand.",
            "{name} nie bierze nic z twojej ręki.",
            "{name} ничего не берёт из вашей руки.",
        ),
        "log.crashed.you": (
            "You lose {card} from your System.",
            "Tracisz „{card}” ze swojego Systemu.",
            "Вы теряете «{card}» из своей Системы.",
        ),
        "log.discard.you": ("You discard {card}.", "Odrzucasz „{card}”.", "Вы сбрасываете «{card}»."),
        "log.skipped.you": (
            "You skip this turn (Phishing!).",
            "Tracisz tę turę (Phishing!).",
            "Вы пропускаете ход (Фишинг!).",
        ),
        "log.launched.you": ("Your System is launched!", "Twój System uruchomiony!", "Ваша Система запущена!"),
        "log.left.you": ("You have left the game.", "Opuszczasz grę.", "Вы покидаете игру."),
        "table.launched_by.you": ("You launched the system!", "Uruchamiasz system!", "Вы запускаете систему!"),
        "guide.moment": (
            "Showing move {n} — click here or press Esc to return",
            "Pokazany ruch {n} — kliknij tutaj lub naciśnij Esc, aby wrócić",
            "Показан ход {n} — нажмите здесь или Esc, чтобы вернуться",
        ),
        "guide.step": ("Guide {k}/{n}: {text}", "Przewodnik {k}/{n}: {text}", "Подсказка {k}/{n}: {text}"),
        "guide.skip": ("Skip the guide", "Pomiń przewodnik", "Пропустить подсказки"),
        "guide.sl.build": (
            "Build your System: click a Part or Protection card in your hand, then its Build button. Three different "
            "Parts and one Protection in your System launch it, and you win.",
            "Buduj swój System: kliknij kartę Części lub Ochrony w ręce, potem jej przycisk budowania. Trzy różne "
            "Części i jedna Ochrona w Systemie uruchamiają go i wygrywasz.",
            "Собирайте свою Систему: нажмите карту Детали или Защиты в руке, затем её кнопку сборки. Три разные "
            "Детали и одна Защита в Системе запускают её, и вы побеждаете.",
        ),
        "guide.sl.events": (
            "Event cards act on other players: pick the card, then the button naming the player. A Protection in a "
            "System can stop them. Play on!",
            "Karty Zdarzeń działają na innych graczy: wybierz kartę, potem przycisk z imieniem gracza. Ochrona "
            "w Systemie może je zatrzymać. Graj dalej!",
            "Карты Событий действуют на других игроков: выберите карту, затем кнопку с именем игрока. Защита "
            "в Системе может их остановить. Играйте дальше!",
        ),
        "guide.log_tip": (
            "Click a line to see the board at that moment.",
            "Kliknij wiersz, aby zobaczyć planszę w tamtej chwili.",
            "Нажмите на строку, чтобы увидеть поле в тот момент.",
        ),
    }
)

# Each game's table brings its own words.
_M.update(MAZE_MESSAGES)
_M.update(CC_MESSAGES)

CATALOGUE: dict[str, dict[str, str]] = {key: dict(zip(LANGUAGES, texts, strict=True)) for key, texts in _M.items()}
