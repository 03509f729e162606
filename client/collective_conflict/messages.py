"""Collective Conflict's entries of the catalogue (English, Polish, Russian).

Kept beside the board so that a game's words travel with its table;
:mod:`client.messages` merges them into the one catalogue (same rules: every
translation uses the same ``{fields}``).  Unit names stay as in the rule text
(MotherShip, Decoy, Runner, Climber, NetCaster, Jumper, Data Core, Virus; Polish
"Wrak", "Sieć").  Log lines put the player's name first with a colon, so that
Polish and Russian need no grammatical gender or case for names and kinds.
"""

from __future__ import annotations

_KINDS = {
    "command": ("command unit", "jednostka dowodzenia", "командный юнит"),
    "mothership": ("MotherShip", "MotherShip", "MotherShip"),
    "decoy": ("Decoy", "Decoy", "Decoy"),
    "runner": ("Runner", "Runner", "Runner"),
    "climber": ("Climber", "Climber", "Climber"),
    "netcaster": ("NetCaster", "NetCaster", "NetCaster"),
    "jumper": ("Jumper", "Jumper", "Jumper"),
    "wreck": ("Wreck", "Wrak", "Обломок"),
}
_PLURALS = {
    "command": ("{n} command units", "jednostki dowodzenia ×{n}", "командные юниты ×{n}"),
    "mothership": ("{n} MotherShips", "MotherShip ×{n}", "MotherShip ×{n}"),
    "decoy": ("{n} Decoys", "Decoy ×{n}", "Decoy ×{n}"),
    "runner": ("{n} Runners", "Runner ×{n}", "Runner ×{n}"),
    "climber": ("{n} Climbers", "Climber ×{n}", "Climber ×{n}"),
    "netcaster": ("{n} NetCasters", "NetCaster ×{n}", "NetCaster ×{n}"),
    "jumper": ("{n} Jumpers", "Jumper ×{n}", "Jumper ×{n}"),
    "wreck": ("{n} Wrecks", "Wraki ×{n}", "Обломки ×{n}"),
}

MESSAGES: dict[str, tuple[str, str, str]] = {
    **{f"cc.kind.{k}": v for k, v in _KINDS.items()},
    **{f"cc.kinds.{k}": v for k, v in _PLURALS.items()},
    "cc.one": ("1 {kind}", "{kind} ×1", "{kind} ×1"),
    "cc.reserve.empty": ("reserve empty", "rezerwa pusta", "резерв пуст"),
    # -- the lobby ---------------------------------------------------------------------
    "level.random": ("Random (easiest)", "Losowy (najłatwiejszy)", "Случайный (самый лёгкий)"),
    "level.greedy": ("Greedy", "Zachłanny", "Жадный"),
    "level.search": ("Search (strongest)", "Przeszukujący (najsilniejszy)", "Поисковый (самый сильный)"),
    "cc.bot_names": (
        "Ada,Boris,Celina,Dmitri,Ewa,Farid,Greta,Hugo,Irena",
        "Ada,Borys,Celina,Dymitr,Ewa,Farid,Greta,Hugo,Irena",
        "Ада,Борис,Селина,Дмитрий,Ева,Фарид,Грета,Гуго,Ирина",
    ),
    # -- the table ---------------------------------------------------------------------
    "cc.fit": ("Fit", "Dopasuj", "Вписать"),
    "cc.fit_tip": (
        "Show the whole structure (and keep it in view as it grows)",
        "Pokaż całą konstrukcję (i trzymaj ją w widoku, gdy rośnie)",
        "Показать всю конструкцию (и держать её в кадре по мере роста)",
    ),
    "cc.zoom_in": ("Zoom in (or the mouse wheel)", "Powiększ (lub kółko myszy)", "Приблизить (или колесо мыши)"),
    "cc.zoom_out": ("Zoom out (or the mouse wheel)", "Pomniejsz (lub kółko myszy)", "Отдалить (или колесо мыши)"),
    "cc.your_reserve": ("YOUR RESERVE", "TWOJA REZERWA", "ВАШ РЕЗЕРВ"),
    "cc.command_tip": (
        "Your MotherShip and your Decoy: to everyone else they are both “command units”. "
        "Choose which one after picking the hex.",
        "Twój MotherShip i Twój Decoy: dla innych to po prostu „jednostki dowodzenia”. "
        "Który z nich — wybierzesz po wskazaniu pola.",
        "Ваш MotherShip и ваш Decoy: для всех остальных это просто «командные юниты». "
        "Какой из них — выберете после выбора поля.",
    ),
    "cc.legend": (
        "Letters A–J mark the Networks. M / D: your own MotherShip and Decoy (only you see them). "
        "Web: a trap (! armed, ~ bluff, ? unknown). Net: immobilised. Red bar: blocked by a Virus. "
        "Drag to pan, wheel to zoom.",
        "Litery A–J oznaczają Sieci. M / D: Twój MotherShip i Decoy (widzisz je tylko Ty). "
        "Pajęczyna: pułapka (! uzbrojona, ~ blef, ? nieznana). Siatka: unieruchomiona. "
        "Czerwona belka: zablokowana przez Virus. Przeciągnij, by przesunąć; kółkiem powiększ.",
        "Буквы A–J обозначают Сети. M / D: ваши MotherShip и Decoy (видите только вы). "
        "Паутина: ловушка (! заряжена, ~ блеф, ? неизвестно). Сетка: обездвижен. "
        "Красная черта: заблокирован Virus. Тяните, чтобы сдвинуть; колесо — масштаб.",
    ),
    "cc.hint.pick": (
        "Pick a unit from your reserve, or one of your units outlined on the board.",
        "Wybierz jednostkę z rezerwy albo jedną ze swoich obrysowanych jednostek na planszy.",
        "Выберите юнит из резерва или один из своих обведённых юнитов на поле.",
    ),
    "cc.hint.target": (
        "{what}: click a lit hex (white: a place or a move; spiky ball: a Virus target).",
        "{what}: kliknij podświetlone pole (białe: wystawienie lub ruch; kolczasta kula: cel Virusa).",
        "{what}: щёлкните по подсвеченному полю (белое: выставить или пойти; шарик с шипами: цель Virus).",
    ),
    "cc.hint.variant": (
        "{hex}: click it again for the first choice, or pick a button.",
        "{hex}: kliknij je ponownie, by wybrać pierwszą opcję, albo wybierz przycisk.",
        "{hex}: щёлкните ещё раз для первого варианта или нажмите кнопку.",
    ),
    "cc.btn.cancel": ("Cancel", "Anuluj", "Отмена"),
    "cc.btn.place": ("Place the {kind} on {hex}", "Wystaw: {kind} na {hex}", "Выставить: {kind} на {hex}"),
    "cc.btn.move": ("Move to {hex}", "Ruch na {hex}", "Ход на {hex}"),
    "cc.hover.unit": ("{kind} · Network {mark}", "{kind} · Sieć {mark}", "{kind} · Сеть {mark}"),
    "cc.hover.yours": ("{kind} (only you know)", "{kind} (wiesz tylko ty)", "{kind} (знаете только вы)"),
    "cc.hover.core": ("Data Core", "Data Core", "Data Core"),
    "cc.hover.trap_armed": (
        "Your trap, armed (Network {mark})",
        "Twoja pułapka, uzbrojona (Sieć {mark})",
        "Ваша ловушка, заряжена (Сеть {mark})",
    ),
    "cc.hover.trap_bluff": (
        "Your trap, a bluff (Network {mark})",
        "Twoja pułapka, blef (Sieć {mark})",
        "Ваша ловушка, блеф (Сеть {mark})",
    ),
    "cc.hover.trap_unknown": (
        "A trap of Network {mark}: armed or a bluff?",
        "Pułapka Sieci {mark}: uzbrojona czy blef?",
        "Ловушка Сети {mark}: заряжена или блеф?",
    ),
    "cc.btn.climb": ("Climb onto the {kind} at {hex}", "Wspinaczka: na {kind}, {hex}", "Забраться на {kind}, {hex}"),
    "cc.btn.jump": ("Jump to {hex}", "Skok na {hex}", "Прыжок на {hex}"),
    "cc.btn.jump2": (
        "Double jump via {mid} to {hex}",
        "Podwójny skok przez {mid} na {hex}",
        "Двойной прыжок через {mid} на {hex}",
    ),
    "cc.btn.move_core": (
        "Move to {hex} + Data Core {core}",
        "Ruch na {hex} + Data Core {core}",
        "Ход на {hex} + Data Core {core}",
    ),
    "cc.btn.cast_armed": (
        "Move — trap armed (default)",
        "Ruch — pułapka uzbrojona (domyślnie)",
        "Ход — ловушка заряжена (по умолчанию)",
    ),
    "cc.btn.cast_bluff": (
        "Move — unarmed trap (a bluff)",
        "Ruch — pułapka nieuzbrojona (blef)",
        "Ход — пустая ловушка (блеф)",
    ),
    "cc.btn.virus_unit": (
        "Virus on the {kind} of Network {mark} at {hex}",
        "Virus na {kind} Sieci {mark}, {hex}",
        "Virus на {kind} Сети {mark}, {hex}",
    ),
    "cc.btn.virus_covered": (
        "Virus on the {kind} of Network {mark} under the Climber at {hex}",
        "Virus na {kind} Sieci {mark} pod Climberem, {hex}",
        "Virus на {kind} Сети {mark} под Climber, {hex}",
    ),
    "cc.btn.virus": ("Use the Virus on {hex}", "Użyj Virusa na {hex}", "Применить Virus к {hex}"),
    "cc.chance": ("The table draws…", "Stół losuje…", "Стол разыгрывает жребий…"),
    "cc.over": ("Game over", "Koniec gry", "Игра окончена"),
    "cc.reveal_you": ("You must reveal a secret", "Musisz ujawnić sekret", "Вы должны раскрыть секрет"),
    "cc.reveal_of": ("{name} must reveal a secret", "{name}: musi ujawnić sekret", "{name}: должен раскрыть секрет"),
    "cc.state.collapsed": ("collapsed", "upadła", "рухнула"),
    "cc.state.virus": ("holds the Virus", "ma Virusa", "держит Virus"),
    "cc.state.units": ("{n} on the board", "{n} na planszy", "{n} на поле"),
    "cc.collapsed_banner": ("Network collapsed: {name}", "Sieć upadła: {name}", "Сеть рухнула: {name}"),
    "cc.removed_banner": ("Removed from the board: {n}", "Usunięte z planszy: {n}", "Убрано с поля: {n}"),
    "cc.you_win": (
        "Your Network is the last one standing!",
        "Twoja Sieć przetrwała jako ostatnia!",
        "Ваша Сеть осталась последней!",
    ),
    "cc.shared_draw": ("A shared draw: {names}", "Wspólny remis: {names}", "Общая ничья: {names}"),
    "cc.report.row": (
        "{n} units on the board · {reserve}",
        "jednostek na planszy: {n} · {reserve}",
        "юнитов на поле: {n} · {reserve}",
    ),
    # -- the log ------------------------------------------------------------------------
    "cc.log.first": ("{name} plays first.", "{name}: zaczyna grę.", "{name}: ходит первым."),
    "cc.log.generic": ("{name}: {action}", "{name}: {action}", "{name}: {action}"),
    "cc.log.place": (
        "{name}: places a {kind} on {hex}.",
        "{name}: wystawia — {kind}, {hex}.",
        "{name}: выставляет — {kind}, {hex}.",
    ),
    "cc.log.place_own": (
        "{name}: your {kind} goes on {hex} (the others see a command unit).",
        "{name}: Twój {kind} staje na {hex} (inni widzą jednostkę dowodzenia).",
        "{name}: ваш {kind} встаёт на {hex} (остальные видят командный юнит).",
    ),
    "cc.log.move": ("{name}: {kind} {src} → {dst}.", "{name}: {kind} {src} → {dst}.", "{name}: {kind} {src} → {dst}."),
    "cc.log.jump2": (
        "{name}: {kind} {src} → {mid} → {dst} (double jump).",
        "{name}: {kind} {src} → {mid} → {dst} (podwójny skok).",
        "{name}: {kind} {src} → {mid} → {dst} (двойной прыжок).",
    ),
    "cc.log.core_hop": (
        "{name}: collects the Data Core at {hex}.",
        "{name}: zbiera Data Core z {hex}.",
        "{name}: забирает Data Core с {hex}.",
    ),
    "cc.log.virus_gained": ("{name}: now holds the Virus.", "{name}: ma teraz Virusa.", "{name}: теперь держит Virus."),
    "cc.log.trap_left": (
        "{name}: a trap lies on {hex}.",
        "{name}: na {hex} leży pułapka.",
        "{name}: на {hex} лежит ловушка.",
    ),
    "cc.log.trap_own_armed": ("(your trap is armed)", "(Twoja pułapka jest uzbrojona)", "(ваша ловушка заряжена)"),
    "cc.log.trap_own_bluff": ("(your trap is a bluff)", "(Twoja pułapka to blef)", "(ваша ловушка — блеф)"),
    "cc.log.virus_covered": (
        "{name}: uses the Virus on {target}'s {kind} under the Climber at {hex}.",
        "{name}: używa Virusa na jednostce {kind} gracza {target} pod Climberem na {hex}.",
        "{name}: применяет Virus к юниту «{kind}» игрока {target} под Climber на {hex}.",
    ),
    "cc.log.virus": (
        "{name}: uses the Virus on {target}'s unit at {hex}.",
        "{name}: używa Virusa na jednostce gracza {target} na {hex}.",
        "{name}: применяет Virus к юниту игрока {target} на {hex}.",
    ),
    "cc.log.core": (
        "A Data Core appears on {hex}.",
        "Na {hex} pojawia się Data Core.",
        "На {hex} появляется Data Core.",
    ),
    "cc.log.owes_command": (
        "{name}: the command unit on {hex} is surrounded and must be revealed.",
        "{name}: jednostka dowodzenia na {hex} jest otoczona i musi zostać ujawniona.",
        "{name}: командный юнит на {hex} окружён и должен быть раскрыт.",
    ),
    "cc.log.owes_trap": (
        "{name}: a unit ended on the trap at {hex}; the trap must be revealed.",
        "{name}: jednostka stanęła na pułapce na {hex}; pułapka musi zostać ujawniona.",
        "{name}: юнит закончил ход на ловушке {hex}; ловушку нужно раскрыть.",
    ),
    "cc.log.reveal_mothership": (
        "{name}: it was the MotherShip!",
        "{name}: to był MotherShip!",
        "{name}: это был MotherShip!",
    ),
    "cc.log.reveal_decoy": ("{name}: it was the Decoy.", "{name}: to był Decoy.", "{name}: это был Decoy."),
    "cc.log.trap_armed": (
        "{name}: the trap was armed — the unit cannot move next turn.",
        "{name}: pułapka była uzbrojona — jednostka nie ruszy się w następnej turze.",
        "{name}: ловушка была заряжена — юнит не сможет ходить в следующий ход.",
    ),
    "cc.log.trap_bluff": (
        "{name}: the trap was a bluff.",
        "{name}: pułapka była blefem.",
        "{name}: ловушка была блефом.",
    ),
    "cc.log.skipped": (
        "{name}: no legal action, the turn is skipped.",
        "{name}: brak dozwolonego ruchu, tura przepada.",
        "{name}: нет допустимого хода, ход пропущен.",
    ),
    "cc.log.skipped_you": (
        "You have no legal action: your turn is skipped.",
        "Nie masz dozwolonego ruchu: twoja tura przepada.",
        "У вас нет допустимого хода: ваш ход пропущен.",
    ),
    "cc.log.collapsed": ("{name}: the Network collapses.", "{name}: Sieć upada.", "{name}: Сеть рушится."),
    "cc.log.wrecks_removed": (
        "Wrecks removed from the board: {n}.",
        "Wraki usunięte z planszy: {n}.",
        "Обломков убрано с поля: {n}.",
    ),
    "cc.log.left": ("{name}: leaves the game.", "{name}: opuszcza grę.", "{name}: покидает игру."),
    # -- the report ----------------------------------------------------------------------------
    "report.reason.last active Network": (
        "The last active Network wins.",
        "Wygrywa ostatnia aktywna Sieć.",
        "Побеждает последняя активная Сеть.",
    ),
    "report.reason.the last Networks collapsed together: shared draw": (
        "The last Networks collapsed together: a shared draw.",
        "Ostatnie Sieci upadły jednocześnie: wspólny remis.",
        "Последние Сети рухнули одновременно: общая ничья.",
    ),
    "report.reason.no Network can act": (
        "No Network could act: a shared draw.",
        "Żadna Sieć nie mogła wykonać ruchu: wspólny remis.",
        "Ни одна Сеть не могла ходить: общая ничья.",
    ),
    "report.reason.position repeated": (
        "The same position came up a third time: a shared draw among the Networks still standing.",
        "Ta sama pozycja powtórzyła się po raz trzeci: wspólny remis Sieci, które jeszcze stoją.",
        "Одна и та же позиция повторилась в третий раз: общая ничья оставшихся Сетей.",
    ),
    "report.reason.move limit": (
        "The round limit was reached: a shared draw among the Networks still standing.",
        "Osiągnięto limit rund: wspólny remis Sieci, które przetrwały.",
        "Достигнут предел раундов: общая ничья уцелевших Сетей.",
    ),
    "report.reason.MotherShip surrounded": (
        "A MotherShip was surrounded.",
        "MotherShip został otoczony.",
        "MotherShip окружён.",
    ),
    "report.reason.both MotherShips surrounded: draw": (
        "Both MotherShips were surrounded at once: a draw.",
        "Oba MotherShipy zostały otoczone jednocześnie: remis.",
        "Оба MotherShip окружены одновременно: ничья.",
    ),
    "report.reason.the other player left": ("The other player left.", "Drugi gracz odszedł.", "Другой игрок ушёл."),
    # -- guide --
    "cc.log.first.you": (
        "You ({name_mark}) play first.",
        "Ty ({name_mark}): zaczynasz grę.",
        "Вы ({name_mark}): ходите первым.",
    ),
    "cc.log.place.you": (
        "You ({name_mark}): place a {kind} on {hex}.",
        "Ty ({name_mark}): wystawiasz — {kind}, {hex}.",
        "Вы ({name_mark}): выставляете — {kind}, {hex}.",
    ),
    "cc.log.place_own.you": (
        "You ({name_mark}): your {kind} goes on {hex} (the others see a command unit).",
        "Ty ({name_mark}): twój {kind} staje na {hex} (inni widzą jednostkę dowodzenia).",
        "Вы ({name_mark}): ваш {kind} встаёт на {hex} (остальные видят командный юнит).",
    ),
    "cc.log.move.you": (
        "You ({name_mark}): move your {kind} {src} → {dst}.",
        "Ty ({name_mark}): przesuwasz — {kind} {src} → {dst}.",
        "Вы ({name_mark}): перемещаете — {kind} {src} → {dst}.",
    ),
    "cc.log.jump2.you": (
        "You ({name_mark}): jump your {kind} {src} → {mid} → {dst} (double jump).",
        "Ty ({name_mark}): skaczesz — {kind} {src} → {mid} → {dst} (podwójny skok).",
        "Вы ({name_mark}): прыгаете — {kind} {src} → {mid} → {dst} (двойной прыжок).",
    ),
    "cc.log.core_hop.you": (
        "You ({name_mark}): collect the Data Core at {hex}.",
        "Ty ({name_mark}): zbierasz Data Core z {hex}.",
        "Вы ({name_mark}): забираете Data Core с {hex}.",
    ),
    "cc.log.virus_gained.you": (
        "You ({name_mark}) now hold the Virus.",
        "Ty ({name_mark}): masz teraz Virusa.",
        "Вы ({name_mark}): теперь держите Virus.",
    ),
    "cc.log.trap_left.you": (
        "You ({name_mark}): your trap lies on {hex}.",
        "Ty ({name_mark}): na {hex} leży twoja pułapka.",
        "Вы ({name_mark}): на {hex} лежит ваша ловушка.",
    ),
    "cc.log.virus_covered.you": (
        "You ({name_mark}): use the Virus on {target}'s {kind} under the Climber at {hex}.",
        "Ty ({name_mark}): używasz Virusa na jednostce {kind} gracza {target} pod Climberem na {hex}.",
        "Вы ({name_mark}): применяете Virus к юниту «{kind}» игрока {target} под Climber на {hex}.",
    ),
    "cc.log.virus_covered.you_target": (
        "{name}: uses the Virus on your {kind} under the Climber at {hex}.",
        "{name}: używa Virusa na twojej jednostce {kind} pod Climberem na {hex}.",
        "{name}: применяет Virus к вашему юниту «{kind}» под Climber на {hex}.",
    ),
    "cc.log.virus.you": (
        "You ({name_mark}): use the Virus on {target}'s unit at {hex}.",
        "Ty ({name_mark}): używasz Virusa na jednostce gracza {target} na {hex}.",
        "Вы ({name_mark}): применяете Virus к юниту игрока {target} на {hex}.",
    ),
    "cc.log.virus.you_target": (
        "{name}: uses the Virus on your unit at {hex}.",
        "{name}: używa Virusa na twojej jednostce na {hex}.",
        "{name}: применяет Virus к вашему юниту на {hex}.",
    ),
    "cc.log.owes_command.you": (
        "You ({name_mark}): your command unit on {hex} is surrounded and must be revealed.",
        "Ty ({name_mark}): twoja jednostka dowodzenia na {hex} jest otoczona i musi zostać ujawniona.",
        "Вы ({name_mark}): ваш командный юнит на {hex} окружён и должен быть раскрыт.",
    ),
    "cc.log.owes_trap.you": (
        "You ({name_mark}): a unit ended on your trap at {hex}; your trap must be revealed.",
        "Ty ({name_mark}): jednostka stanęła na twojej pułapce na {hex}; pułapka musi zostać ujawniona.",
        "Вы ({name_mark}): юнит закончил ход на вашей ловушке {hex}; ловушку нужно раскрыть.",
    ),
    "cc.log.reveal_mothership.you": (
        "You ({name_mark}): it was your MotherShip!",
        "Ty ({name_mark}): to był twój MotherShip!",
        "Вы ({name_mark}): это был ваш MotherShip!",
    ),
    "cc.log.reveal_decoy.you": (
        "You ({name_mark}): it was your Decoy.",
        "Ty ({name_mark}): to był twój Decoy.",
        "Вы ({name_mark}): это был ваш Decoy.",
    ),
    "cc.log.trap_armed.you": (
        "You ({name_mark}): your trap was armed — the unit cannot move next turn.",
        "Ty ({name_mark}): twoja pułapka była uzbrojona — jednostka nie ruszy się w następnej turze.",
        "Вы ({name_mark}): ваша ловушка была заряжена — юнит не сможет ходить в следующий ход.",
    ),
    "cc.log.trap_bluff.you": (
        "You ({name_mark}): your trap was a bluff.",
        "Ty ({name_mark}): twoja pułapka była blefem.",
        "Вы ({name_mark}): ваша ловушка была блефом.",
    ),
    "cc.log.collapsed.you": (
        "You ({name_mark}): your Network collapses.",
        "Ty ({name_mark}): twoja Sieć upada.",
        "Вы ({name_mark}): ваша Сеть рушится.",
    ),
    "cc.log.left.you": (
        "You ({name_mark}): leave the game.",
        "Ty ({name_mark}): opuszczasz grę.",
        "Вы ({name_mark}): покидаете игру.",
    ),
    "guide.cc.place": (
        "On your turn you do one thing. Place a unit: click one in your reserve, then a lit hex touching the "
        "structure, then that hex again. Placing your MotherShip or Decoy (a command unit) activates your Network.",
        "W swojej turze robisz jedną rzecz. Wystaw jednostkę: kliknij ją w rezerwie, potem podświetlony heks "
        "przy strukturze, potem ten heks jeszcze raz. Wystawienie MotherShipa lub Decoya (jednostki dowodzenia) "
        "aktywuje twoją Sieć.",
        "В свой ход вы делаете одно действие. Выставьте юнит: нажмите его в резерве, затем подсвеченный гекс "
        "у структуры, затем этот гекс ещё раз. Выставленный MotherShip или Decoy (командный юнит) активирует "
        "вашу Сеть.",
    ),
    "guide.cc.move": (
        "Once your Network is active, your units may move: click one of yours on the board, then a lit "
        "destination (a Climber may climb onto others), then click it again to go.",
        "Gdy twoja Sieć jest aktywna, jednostki mogą się ruszać: kliknij swoją jednostkę na planszy, potem "
        "podświetlony cel (Climber może wspiąć się na inne), potem kliknij go ponownie.",
        "Когда ваша Сеть активна, юниты могут ходить: нажмите свой юнит на поле, затем подсвеченную цель "
        "(Climber может забраться на других), затем нажмите её ещё раз.",
    ),
    "guide.cc.goal": (
        "A command unit with all six neighbours occupied is surrounded and revealed: a surrounded MotherShip "
        "collapses its Network. Surround the others, keep yours free: the last active Network wins. Play on!",
        "Jednostka dowodzenia, której wszystkie sześć sąsiednich heksów jest zajętych, zostaje otoczona i ujawniona: "
        "otoczony MotherShip oznacza upadek Sieci. Otaczaj innych, chroń swoich: wygrywa ostatnia aktywna Sieć. "
        "Graj dalej!",
        "Командный юнит, у которого заняты все шесть соседних гексов, окружён и раскрывается: окружённый MotherShip "
        "рушит свою Сеть. Окружайте других, берегите своих: побеждает последняя активная Сеть. Играйте дальше!",
    ),
}
