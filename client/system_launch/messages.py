"""System Launch's entries of the catalogue (English, Polish, Russian).

Kept beside the table so that a game's words travel with its table;
:mod:`client.messages` merges them into the one catalogue (same rules: every
translation uses the same ``{fields}``).  Card names follow the Russian
original of the rules (Фаервол, Сбой!, Апгрейд!).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str, str]] = {
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
    "table.deck": ("Deck: {n}", "Talia: {n}", "Колода: {n}"),
    "table.deck_empty": ("Deck empty", "Talia pusta", "Колода пуста"),
    "table.hand": ("Hand: {n}", "Ręka: {n}", "Рука: {n}"),
    "table.system": ("System", "System", "Система"),
    "table.discard": ("Discard", "Odrzucone", "Сброс"),
    "table.your_hand": ("Your hand: {n}", "Twoja ręka: {n}", "Ваша рука: {n}"),
    "table.skips": ("skips the next turn", "traci następną turę", "пропускает следующий ход"),
    "table.left": ("has left the game", "opuścił grę", "покинул игру"),
    "table.actions": ("Your move", "Twój ruch", "Ваш ход"),
    "table.launched": ("System launched!", "System uruchomiony!", "Система запущена!"),
    "table.launched_by": ("{name} launched the system!", "{name} uruchamia system!", "{name} запускает систему!"),
    "table.hacker_view": (
        "{name}'s hand — only you can see it",
        "Ręka gracza {name} — widzisz ją tylko ty",
        "Рука игрока {name} — её видите только вы",
    ),
    "level.memory": ("Remembering (strongest)", "Pamiętający (najsilniejszy)", "Запоминающий (самый сильный)"),
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
    "game.system-launch": ("System Launch", "Start Systemu", "Запуск системы"),
    "game.blurb.system-launch": (
        "A card game of secret hands for 2–6 players: assemble three different parts and a protection.",
        "Gra karciana z ukrytymi kartami dla 2–6 graczy: zbuduj trzy różne części i ochronę.",
        "Карточная игра с тайными руками для 2–6 игроков: соберите три разные детали и защиту.",
    ),
}
