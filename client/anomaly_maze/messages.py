"""Anomaly Maze's entries of the catalogue (English, Polish, Russian).

Kept beside the board so that a game's words travel with its table;
:mod:`client.messages` merges them into the one catalogue (same rules: every
translation uses the same ``{fields}``).  Polish follows the original rule
text's words (Respawn, BlackSaw, „Odrodzenie”, MP, HP).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str, str]] = {
    # -- the lobby ------------------------------------------------------------------
    "lobby.level": ("AI level", "Poziom SI", "Уровень ИИ"),
    "level.easy": ("Easy", "Łatwy", "Лёгкий"),
    "level.normal": ("Normal", "Normalny", "Обычный"),
    "level.hard": ("Hard", "Trudny", "Сложный"),
    "maze.ai_name": ("AI player ({level})", "Gracz SI ({level})", "ИИ-игрок ({level})"),
    # -- what is going on -----------------------------------------------------------
    "maze.phase.setup": ("Building the maze", "Budowanie labiryntu", "Строим лабиринт"),
    "maze.phase.anomaly": ("Anomaly", "Anomalia", "Аномалия"),
    "maze.phase.move": ("Move", "Ruch", "Движение"),
    "maze.phase.combat": ("Combat", "Walka", "Бой"),
    "maze.phase.over": ("Game over", "Koniec gry", "Игра окончена"),
    "maze.hint.anomaly": (
        "Click an arrow to preview shifting its row or column, or click a tile to pick it, turn it and confirm.",
        "Kliknij strzałkę, by przesunąć jej rząd lub kolumnę, albo kliknij płytkę, obróć ją i zatwierdź.",
        "Нажмите стрелку, чтобы сдвинуть её ряд или столбец, или выберите плитку, поверните её и подтвердите.",
    ),
    "maze.hint.shift": (
        "The gold line shows {line} after the shift: click the arrow again or confirm.",
        "Złota ramka pokazuje {line} po przesunięciu: kliknij strzałkę ponownie albo zatwierdź.",
        "Золотая рамка показывает {line} после сдвига: нажмите стрелку ещё раз или подтвердите.",
    ),
    "maze.hint.rotate": (
        "Turn {cell} with the buttons (or click it again), then confirm.",
        "Obróć {cell} przyciskami (albo klikając ją ponownie), potem zatwierdź.",
        "Поверните {cell} кнопками (или щёлкните по ней ещё раз), затем подтвердите.",
    ),
    "maze.hint.move": (
        "Click a lit field to plan your route (the white line); click its end again or “Go” to walk it. "
        "Click your own field to stay.",
        "Kliknij podświetlone pole, by zaplanować trasę (biała linia); kliknij jej koniec ponownie albo „Idź”. "
        "Kliknij własne pole, by zostać.",
        "Щёлкните по подсвеченному полю, чтобы проложить путь (белая линия); щёлкните по его концу ещё раз "
        "или «Идти». Щёлкните по своему полю, чтобы остаться.",
    ),
    "maze.hint.combat": (
        "{name} is in an open line: roll a die to attack, or don't attack.",
        "{name} stoi na otwartej linii: rzuć kością, by zaatakować, albo nie atakuj.",
        "{name} на открытой линии: бросьте кубик, чтобы атаковать, или не атакуйте.",
    ),
    "maze.btn.rotate_left": ("↺ Turn left", "↺ Obróć w lewo", "↺ Повернуть влево"),
    "maze.btn.rotate_right": ("↻ Turn right", "↻ Obróć w prawo", "↻ Повернуть вправо"),
    "maze.btn.confirm": ("Confirm the rotation", "Zatwierdź obrót", "Подтвердить поворот"),
    "maze.btn.cancel": ("Cancel", "Anuluj", "Отмена"),
    "maze.btn.go": ("Go to {cell}", "Idź na {cell}", "Идти на {cell}"),
    "maze.btn.stay": ("Stay on {cell}", "Zostań na {cell}", "Остаться на {cell}"),
    "maze.btn.clear": ("Clear the route", "Wyczyść trasę", "Сбросить путь"),
    "maze.btn.attack": (
        "Attack — die {n} of {total}",
        "Atakuj — kość {n} z {total}",
        "Атаковать — кубик {n} из {total}",
    ),
    "maze.btn.no_attack": ("Don't attack", "Nie atakuj", "Не атаковать"),
    "maze.dice": ("Attack dice", "Kości ataku", "Кубики атаки"),
    # -- a player's card -------------------------------------------------------------
    "maze.player": ("Player {n}", "Gracz {n}", "Игрок {n}"),
    "maze.hp": ("HP {hp}/{max}", "HP {hp}/{max}", "HP {hp}/{max}"),
    "maze.mp": ("MP {mp}/{win}", "MP {mp}/{win}", "MP {mp}/{win}"),
    "maze.key.carried": (
        "Carries the key · chest on {chest}",
        "Niesie klucz · skrzynia na {chest}",
        "Несёт ключ · сундук на {chest}",
    ),
    "maze.key.lying": (
        "Key on {key} · chest on {chest}",
        "Klucz na {key} · skrzynia na {chest}",
        "Ключ на {key} · сундук на {chest}",
    ),
    "maze.key.over": (
        "The game is over: no more missions",
        "Koniec gry: nie będzie już misji",
        "Игра окончена: миссий больше не будет",
    ),
    "maze.key.none": ("A new mission is coming", "Nowa misja w drodze", "Скоро новая миссия"),
    "maze.off": (
        "Off the board · turns still to miss: {n}",
        "Poza planszą · tury do odczekania: {n}",
        "Вне поля · осталось пропустить ходов: {n}",
    ),
    "maze.off.ready": (
        "Off the board · Respawn on the next turn",
        "Poza planszą · Odrodzenie w następnej turze",
        "Вне поля · возрождение в следующий ход",
    ),
    "maze.blocked": ("Respawn blocked {n}/3", "Respawn zablokowany {n}/3", "Респаун заблокирован {n}/3"),
    "maze.blocking": (
        "Blocking the opponent's Respawn",
        "Blokuje Respawn przeciwnika",
        "Блокирует респаун противника",
    ),
    "maze.respawn_at": ("Respawn {cell}", "Respawn {cell}", "Респаун {cell}"),
    "maze.respawn_banner": ("Respawn!", "Odrodzenie!", "Возрождение!"),
    "maze.you_win": ("You win!", "Wygrywasz!", "Вы победили!"),
    # -- the log ------------------------------------------------------------------------
    "maze.log.turn": ("— Round {n}: {name} —", "— Runda {n}: {name} —", "— Раунд {n}: {name} —"),
    "maze.log.rotate": (
        "{name} turns {cell} by {deg}°.",
        "{name} obraca {cell} o {deg}°.",
        "{name} поворачивает {cell} на {deg}°.",
    ),
    "maze.log.shift.row.1": (
        "{name} shifts row {line} east.",
        "{name} przesuwa rząd {line} w prawo.",
        "{name} сдвигает ряд {line} вправо.",
    ),
    "maze.log.shift.row.-1": (
        "{name} shifts row {line} west.",
        "{name} przesuwa rząd {line} w lewo.",
        "{name} сдвигает ряд {line} влево.",
    ),
    "maze.log.shift.col.1": (
        "{name} shifts column {line} south.",
        "{name} przesuwa kolumnę {line} w dół.",
        "{name} сдвигает столбец {line} вниз.",
    ),
    "maze.log.shift.col.-1": (
        "{name} shifts column {line} north.",
        "{name} przesuwa kolumnę {line} w górę.",
        "{name} сдвигает столбец {line} вверх.",
    ),
    "maze.log.move": ("{name} walks {path}.", "{name} idzie: {path}.", "{name} идёт: {path}."),
    "maze.log.stay": ("{name} stays put.", "{name} zostaje na miejscu.", "{name} остаётся на месте."),
    "maze.log.key": (
        "{name} picks up the key on {cell}.",
        "{name} podnosi klucz na {cell}.",
        "{name} берёт ключ на {cell}.",
    ),
    "maze.log.chest": (
        "{name} opens the chest on {cell}: +{mp} MP.",
        "{name} otwiera skrzynię na {cell}: +{mp} MP.",
        "{name} открывает сундук на {cell}: +{mp} MP.",
    ),
    "maze.log.medkit": (
        "{name} uses the medkit on {cell}: +{hp} HP.",
        "{name} używa apteczki na {cell}: +{hp} HP.",
        "{name} берёт аптечку на {cell}: +{hp} HP.",
    ),
    "maze.log.mine": (
        "{name} steps on the mine on {cell}: −{hp} HP.",
        "{name} wchodzi na minę na {cell}: −{hp} HP.",
        "{name} наступает на мину на {cell}: −{hp} HP.",
    ),
    "maze.log.spikes": (
        "{name} runs into the spikes on {cell}: −{hp} HP.",
        "{name} wpada na kolce na {cell}: −{hp} HP.",
        "{name} попадает на шипы на {cell}: −{hp} HP.",
    ),
    "maze.log.attack": ("{name} attacks!", "{name} atakuje!", "{name} атакует!"),
    "maze.log.hit": (
        "{name} rolls {face}: −{hp} HP.",
        "{name} wyrzuca {face}: −{hp} HP.",
        "{name} выбрасывает {face}: −{hp} HP.",
    ),
    "maze.log.miss": (
        "{name} rolls {face}: a miss.",
        "{name} wyrzuca {face}: pudło.",
        "{name} выбрасывает {face}: промах.",
    ),
    "maze.log.no_attack": ("{name} does not attack.", "{name} nie atakuje.", "{name} не атакует."),
    "maze.log.out.combat": (
        "{name} is eliminated in combat: +{mp} MP for {scorer}.",
        "{name} ginie w walce: +{mp} MP dla gracza {scorer}.",
        "{name} выбывает в бою: +{mp} MP для игрока {scorer}.",
    ),
    "maze.log.out.pushed": (
        "{name} is pushed off the board: +{mp} MP for {scorer}.",
        "{name} zostaje zepchnięty(-a) z planszy: +{mp} MP dla gracza {scorer}.",
        "{name} вытолкнут(а) с поля: +{mp} MP для игрока {scorer}.",
    ),
    "maze.log.out.fell": (
        "{name} falls off the board.",
        "{name} spada z planszy.",
        "{name} падает с поля.",
    ),
    "maze.log.out.mine": (
        "{name} is eliminated by the mine.",
        "{name} ginie na minie.",
        "{name} выбывает, подорвавшись на мине.",
    ),
    "maze.log.out.spikes": (
        "{name} is eliminated by the spikes.",
        "{name} ginie na kolcach.",
        "{name} выбывает на шипах.",
    ),
    "maze.log.out.blacksaw": (
        "{name} is destroyed by BlackSaw energy (no point).",
        "{name} ginie od energii BlackSaw (bez punktu).",
        "{name} уничтожен(а) энергией BlackSaw (без очка).",
    ),
    "maze.log.missed": (
        "{name} is off the board: turns still to miss: {n}.",
        "{name} jest poza planszą: tury do odczekania: {n}.",
        "{name} вне поля: осталось пропустить ходов: {n}.",
    ),
    "maze.log.blocked.1": (
        "Respawn blocked 1/3: {name} cannot come back yet.",
        "Blokada 1/3: {name} nie może jeszcze wrócić.",
        "Блокировка 1/3: {name} пока не может вернуться.",
    ),
    "maze.log.blocked.2": (
        "Respawn blocked 2/3: the energy of {name}'s Respawn goes critical!",
        "Blokada 2/3: energia Respawnu gracza {name} staje się krytyczna!",
        "Блокировка 2/3: энергия респауна игрока {name} становится критической!",
    ),
    "maze.log.blocked.n": (
        "Respawn blocked {n}/3: {name} cannot come back yet.",
        "Blokada {n}/3: {name} nie może jeszcze wrócić.",
        "Блокировка {n}/3: {name} пока не может вернуться.",
    ),
    "maze.log.blacksaw": (
        "Attempt 3/3: BlackSaw energy clears {name}'s Respawn.",
        "Próba 3/3: energia BlackSaw oczyszcza Respawn gracza {name}.",
        "Попытка 3/3: энергия BlackSaw очищает респаун игрока {name}.",
    ),
    "maze.log.respawn": (
        "Respawn! {name} is back on {cell} with full HP.",
        "Odrodzenie! {name} wraca na {cell} z pełnym HP.",
        "Возрождение! {name} возвращается на {cell} с полным HP.",
    ),
    "maze.log.key_placed": (
        "A key for {name} lies on {cell}.",
        "Klucz gracza {name} leży na {cell}.",
        "Ключ игрока {name} лежит на {cell}.",
    ),
    "maze.log.chest_placed": (
        "A chest for {name} stands on {cell}.",
        "Skrzynia gracza {name} stoi na {cell}.",
        "Сундук игрока {name} стоит на {cell}.",
    ),
    "maze.log.item.medkit": (
        "A medkit appears on {cell}.",
        "Apteczka pojawia się na {cell}.",
        "Аптечка появляется на {cell}.",
    ),
    "maze.log.item.mine": ("A mine appears on {cell}.", "Mina pojawia się na {cell}.", "Мина появляется на {cell}."),
    "maze.log.item.spikes": (
        "Spikes appear on {cell}.",
        "Kolce pojawiają się na {cell}.",
        "Шипы появляются на {cell}.",
    ),
    "maze.log.first": ("{name} plays first.", "{name} zaczyna.", "{name} ходит первым."),
    "maze.log.forfeit": ("{name} leaves the game.", "{name} opuszcza grę.", "{name} покидает игру."),
    "maze.log.won": ("{name} wins!", "Wygrywa {name}!", "Победил(а) {name}!"),
    "maze.log.draw": ("A draw.", "Remis.", "Ничья."),
    # -- the report ----------------------------------------------------------------------
    "maze.report.row": ("{mp} MP · {hp} HP", "{mp} MP · {hp} HP", "{mp} MP · {hp} HP"),
    "report.reason.mission points": (
        "The first to reach the Mission Points goal.",
        "Pierwsza osoba, która zdobyła wymagane Punkty Misji.",
        "Первым набрал(а) нужное число очков миссии.",
    ),
    "report.reason.forfeit": (
        "The other player left the game.",
        "Drugi gracz opuścił grę.",
        "Другой игрок покинул игру.",
    ),
    "report.reason.round cap, more mission points": (
        "The round limit was reached; more Mission Points won.",
        "Osiągnięto limit rund; wygrało więcej Punktów Misji.",
        "Достигнут предел раундов; победило большее число очков миссии.",
    ),
    "report.reason.round cap, equal mission points": (
        "The round limit was reached with equal Mission Points.",
        "Osiągnięto limit rund przy równych Punktach Misji.",
        "Достигнут предел раундов при равных очках миссии.",
    ),
    # -- guide --
    "maze.log.first.you": ("You play first.", "Zaczynasz.", "Вы ходите первым."),
    "maze.log.turn.you": ("— Round {n}: your turn —", "— Runda {n}: twoja tura —", "— Раунд {n}: ваш ход —"),
    "maze.log.rotate.you": (
        "You turn {cell} by {deg}°.",
        "Obracasz {cell} o {deg}°.",
        "Вы поворачиваете {cell} на {deg}°.",
    ),
    "maze.log.shift.row.1.you": (
        "You shift row {line} east.",
        "Przesuwasz rząd {line} w prawo.",
        "Вы сдвигаете ряд {line} вправо.",
    ),
    "maze.log.shift.row.-1.you": (
        "You shift row {line} west.",
        "Przesuwasz rząd {line} w lewo.",
        "Вы сдвигаете ряд {line} влево.",
    ),
    "maze.log.shift.col.1.you": (
        "You shift column {line} south.",
        "Przesuwasz kolumnę {line} w dół.",
        "Вы сдвигаете столбец {line} вниз.",
    ),
    "maze.log.shift.col.-1.you": (
        "You shift column {line} north.",
        "Przesuwasz kolumnę {line} w górę.",
        "Вы сдвигаете столбец {line} вверх.",
    ),
    "maze.log.move.you": ("You walk {path}.", "Idziesz: {path}.", "Вы идёте: {path}."),
    "maze.log.stay.you": ("You stay put.", "Zostajesz na miejscu.", "Вы остаётесь на месте."),
    "maze.log.key.you": ("You pick up the key on {cell}.", "Podnosisz klucz na {cell}.", "Вы берёте ключ на {cell}."),
    "maze.log.chest.you": (
        "You open the chest on {cell}: +{mp} MP.",
        "Otwierasz skrzynię na {cell}: +{mp} MP.",
        "Вы открываете сундук на {cell}: +{mp} MP.",
    ),
    "maze.log.medkit.you": (
        "You use the medkit on {cell}: +{hp} HP.",
        "Używasz apteczki na {cell}: +{hp} HP.",
        "Вы берёте аптечку на {cell}: +{hp} HP.",
    ),
    "maze.log.mine.you": (
        "You step on the mine on {cell}: −{hp} HP.",
        "Wchodzisz na minę na {cell}: −{hp} HP.",
        "Вы наступаете на мину на {cell}: −{hp} HP.",
    ),
    "maze.log.spikes.you": (
        "You run into the spikes on {cell}: −{hp} HP.",
        "Wpadasz na kolce na {cell}: −{hp} HP.",
        "Вы попадаете на шипы на {cell}: −{hp} HP.",
    ),
    "maze.log.attack.you": ("You attack!", "Atakujesz!", "Вы атакуете!"),
    "maze.log.hit.you": (
        "You roll {face}: −{hp} HP.",
        "Wyrzucasz {face}: −{hp} HP.",
        "Вы выбрасываете {face}: −{hp} HP.",
    ),
    "maze.log.miss.you": ("You roll {face}: a miss.", "Wyrzucasz {face}: pudło.", "Вы выбрасываете {face}: промах."),
    "maze.log.no_attack.you": ("You do not attack.", "Nie atakujesz.", "Вы не атакуете."),
    "maze.log.out.combat.you": (
        "You are eliminated in combat: +{mp} MP for {scorer}.",
        "Giniesz w walce: +{mp} MP dla gracza {scorer}.",
        "Вы выбываете в бою: +{mp} MP для игрока {scorer}.",
    ),
    "maze.log.out.combat.you_scorer": (
        "{name} is eliminated in combat: +{mp} MP for you.",
        "{name} ginie w walce: +{mp} MP dla ciebie.",
        "{name} выбывает в бою: +{mp} MP вам.",
    ),
    "maze.log.out.pushed.you": (
        "You are pushed off the board: +{mp} MP for {scorer}.",
        "Zostajesz zepchnięty(-a) z planszy: +{mp} MP dla gracza {scorer}.",
        "Вас вытолкнули с поля: +{mp} MP для игрока {scorer}.",
    ),
    "maze.log.out.pushed.you_scorer": (
        "{name} is pushed off the board: +{mp} MP for you.",
        "{name} zostaje zepchnięty(-a) z planszy: +{mp} MP dla ciebie.",
        "{name} вытолкнут(а) с поля: +{mp} MP вам.",
    ),
    "maze.log.out.fell.you": ("You fall off the board.", "Spadasz z planszy.", "Вы падаете с поля."),
    "maze.log.out.mine.you": (
        "You are eliminated by the mine.",
        "Giniesz na minie.",
        "Вы выбываете, подорвавшись на мине.",
    ),
    "maze.log.out.spikes.you": ("You are eliminated by the spikes.", "Giniesz na kolcach.", "Вы выбываете на шипах."),
    "maze.log.out.blacksaw.you": (
        "You are destroyed by BlackSaw energy (no point).",
        "Giniesz od energii BlackSaw (bez punktu).",
        "Вас уничтожила энергия BlackSaw (без очка).",
    ),
    "maze.log.missed.you": (
        "You are off the board: turns still to miss: {n}.",
        "Jesteś poza planszą: tury do odczekania: {n}.",
        "Вы вне поля: осталось пропустить ходов: {n}.",
    ),
    "maze.log.blocked.1.you": (
        "Respawn blocked 1/3: you cannot come back yet.",
        "Blokada 1/3: nie możesz jeszcze wrócić.",
        "Блокировка 1/3: вы пока не можете вернуться.",
    ),
    "maze.log.blocked.2.you": (
        "Respawn blocked 2/3: the energy of your Respawn goes critical!",
        "Blokada 2/3: energia twojego Respawnu staje się krytyczna!",
        "Блокировка 2/3: энергия вашего респауна становится критической!",
    ),
    "maze.log.blocked.n.you": (
        "Respawn blocked {n}/3: you cannot come back yet.",
        "Blokada {n}/3: nie możesz jeszcze wrócić.",
        "Блокировка {n}/3: вы пока не можете вернуться.",
    ),
    "maze.log.blacksaw.you": (
        "Attempt 3/3: BlackSaw energy clears your Respawn.",
        "Próba 3/3: energia BlackSaw oczyszcza twój Respawn.",
        "Попытка 3/3: энергия BlackSaw очищает ваш респаун.",
    ),
    "maze.log.respawn.you": (
        "Respawn! You are back on {cell} with full HP.",
        "Odrodzenie! Wracasz na {cell} z pełnym HP.",
        "Возрождение! Вы возвращаетесь на {cell} с полным HP.",
    ),
    "maze.log.key_placed.you": ("Your key lies on {cell}.", "Twój klucz leży na {cell}.", "Ваш ключ лежит на {cell}."),
    "maze.log.chest_placed.you": (
        "Your chest stands on {cell}.",
        "Twoja skrzynia stoi na {cell}.",
        "Ваш сундук стоит на {cell}.",
    ),
    "maze.log.forfeit.you": ("You leave the game.", "Opuszczasz grę.", "Вы покидаете игру."),
    "maze.log.won.you": ("You win!", "Wygrywasz!", "Вы победили!"),
    "guide.maze.anomaly": (
        "Each turn begins with an anomaly. Click an arrow at the edge of the board to preview pushing that row or "
        "column, and click it again to push; or click a tile to turn it, then Confirm.",
        "Każda tura zaczyna się od anomalii. Kliknij strzałkę na krawędzi planszy, aby zobaczyć przesunięcie "
        "rzędu lub kolumny, i kliknij ją ponownie, aby przesunąć; albo kliknij kafelek, aby go obrócić, i zatwierdź.",
        "Каждый ход начинается с аномалии. Нажмите стрелку у края поля, чтобы увидеть сдвиг ряда или столбца, "
        "и нажмите её ещё раз, чтобы сдвинуть; или нажмите на плитку, чтобы повернуть её, и подтвердите.",
    ),
    "guide.maze.walk": (
        "Now walk: click the cells of your route one after another, then click the last one again (or Go). "
        "Click your own cell to stay put.",
        "Teraz idź: klikaj kolejne pola trasy, a potem jeszcze raz ostatnie (albo Idź). "
        "Kliknij własne pole, aby zostać na miejscu.",
        "Теперь идите: нажимайте клетки маршрута одну за другой, затем ещё раз последнюю (или «Идти»). "
        "Нажмите свою клетку, чтобы остаться на месте.",
    ),
    "guide.maze.goal": (
        "Walk to your key, then to your chest: it gives 5 Mission Points (your card shows them). Next to your "
        "opponent after the walk, you may attack with the dice. Play on!",
        "Dojdź do swojego klucza, a potem do skrzyni: daje 5 Punktów Misji (widać je na twojej karcie). Obok "
        "przeciwnika po ruchu możesz zaatakować kośćmi. Graj dalej!",
        "Дойдите до своего ключа, затем до сундука: он даёт 5 очков миссии (они на вашей карточке). Оказавшись "
        "рядом с соперником после хода, можно атаковать кубиками. Играйте дальше!",
    ),
}
