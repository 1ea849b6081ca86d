"""The engine's refusals in Latvian (`refusals_is.words(message, "lv")`), in the words the
Latvian backgammon faces use: mačs (match), partija (game), kauliņš (checker),
kubs (cube), turnīra direktors (TD), žūrija (jury), novērotājs (monitor).
Pure data, keyed like `refusals_is.ICELANDIC`:
English as the engine raises it, "{}" for a figure → "{0}", "{1}"…
"""

from __future__ import annotations

LATVIAN: dict[str, str] = {
    "0 to 15 checkers a side": "no 0 līdz 15 kauliņiem katrā pusē",
    "1 to the match length in points": "no 1 līdz mača garumam punktos",
    "a concession is waiting for an answer": "padošanās gaida atbildi",
    "a cube value is 2, 4, 8, 16 ...": "kuba vērtība ir 2, 4, 8, 16 …",
    "a double comes before rolling": "dubulto pirms metiena",
    "a double is waiting for take or drop": "dubultojums gaida pieņemšanu vai atteikumu",
    "a jury is three or five different people": "žūrijā ir trīs vai pieci dažādi cilvēki",
    "a match is 1 to {} points": "mačs ir no 1 līdz {0} punktiem",
    "a monitor's name; requested by A, B or the TD": (
        "novērotāja vārds; pieprasa A, B vai turnīra direktors"
    ),
    "a player doubles on his own turn": "spēlētājs dubulto savā gājienā",
    "a report says what the monitor saw": "ziņojumā ir tas, ko novērotājs redzēja",
    "a ruling says what was decided and why": "lēmumā ir tas, kas nolemts un kāpēc",
    "a scoresheet of a match in progress": "notiekoša mača protokols",
    "a side is 26 counts (off, points 1-24, bar)": (
        "puse ir 26 skaitļi (izvesti, punkti 1-24, bārs)"
    ),
    "a table 1 to {}, or none": "galds no 1 līdz {0} vai neviens",
    "a winner's score of the match length, and why": "uzvarētāja punkti mača garumā un iemesls",
    "already accepted by rolling": "jau pieņemts ar metienu",
    "already permitted": "jau atļauts",
    "an appeal follows a ruling at once": "apelācija seko lēmumam nekavējoties",
    "at least one pause": "vismaz viena pauze",
    "both sides on one point": "abas puses vienā punktā",
    "conduct, aids or equipment": "uzvedība, palīglīdzekļi vai aprīkojums",
    "device time runs forward": "ierīces laiks iet uz priekšu",
    "dice are exchanged at the start of a game": "kauliņus apmaina partijas sākumā",
    "dice show 1 to 6, not {}": "metamajiem kauliņiem ir no 1 līdz 6, nevis {0}",
    "it is the opponent's turn": "gājiens ir pretiniekam",
    "neither the TD nor a player sits on the jury": (
        "ne turnīra direktors, ne spēlētājs nesēž žūrijā"
    ),
    "no appeal to decide": "nav apelācijas, par ko lemt",
    "no clock in this match": "šajā mačā nav pulksteņa",
    "no concession to answer": "nav padošanās, uz ko atbildēt",
    "no concession while checkers can still be hit": "padoties nevar, kamēr kauliņus vēl var sist",
    "no dispute waiting for a ruling": "nav strīda, kas gaida lēmumu",
    "no double after an invalid roll": "pēc nederīga metiena nedubulto",
    "no double has been taken in this game": "šajā partijā neviens dubultojums nav pieņemts",
    "no double to answer": "nav dubultojuma, uz ko atbildēt",
    "no early roll to reject": "nav priekšlaicīga metiena, ko noraidīt",
    "no game is in progress": "neviena partija nenotiek",
    "no illegal play of the opponent to answer": (
        "nav pretinieka nelikumīga gājiena, uz ko atbildēt"
    ),
    "no match has been created": "mačs nav izveidots",
    "no match in progress": "neviens mačs nenotiek",
    "no monitor has been appointed to this match": "šim mačam nav iecelts novērotājs",
    "no permission to end": "nav atļaujas beigt",
    "no player's time has run out": "nevienam spēlētājam laiks nav beidzies",
    "no reported result to confirm": "nav paziņota rezultāta, ko apstiprināt",
    "not the moment to roll": "tagad nav laiks mest",
    "not this player's move": "tas nav šī spēlētāja gājiens",
    "nothing to undo": "nav ko atsaukt",
    "only a finished match's result is corrected": "labot var tikai beigušās mača rezultātu",
    "only between games": "tikai starp partijām",
    "only entries of the current game can be undone": (
        "atsaukt var tikai pašreizējās partijas ierakstus"
    ),
    "only the player whose time runs presses": "pulksteni spiež tikai spēlētājs, kura laiks iet",
    "pauses are taken between games": "pauzes ņem starp partijām",
    "penalty points start at 5 minutes": "soda punkti sākas no 5 minūtēm",
    "players may not agree the result of a game": (
        "spēlētāji nedrīkst vienoties par partijas rezultātu"
    ),
    "players may not agree the result of a match": (
        "spēlētāji nedrīkst vienoties par mača rezultātu"
    ),
    "scoresheets are compared after a game": "protokolus salīdzina pēc partijas",
    "side must be A or B, not {}": "pusei jābūt A vai B, nevis {0}",
    "side must be A, B or empty": "pusei jābūt A, B vai tukšai",
    "single, gammon or backgammon": "vienkāršā uzvara, gammon vai backgammon",
    "stop the clock to ask for a correction": "lai lūgtu labojumu, apturiet pulksteni",
    "testimony is heard in a dispute": "liecības uzklausa strīdā",
    "the TD has been called": "turnīra direktors ir izsaukts",
    "the board is frozen until the dispute is decided": (
        "galds ir iesaldēts, līdz strīds ir izšķirts"
    ),
    "the clock is already running": "pulkstenis jau iet",
    "the clock is running": "pulkstenis iet",
    "the clock is stopped": "pulkstenis ir apturēts",
    "the clock stops only in the eight cases": "pulkstenis apstājas tikai astoņos gadījumos",
    "the cube already shows {}": "kubs jau rāda {0}",
    "the cube is on the opponent's side": "kubs ir pretinieka pusē",
    "the game in progress is played to its end": "notiekošo partiju izspēlē līdz galam",
    "the illegal play bore off the last checker: accept or correct it first": (
        "nelikumīgais gājiens izveda pēdējo kauliņu: vispirms pieņemiet vai labojiet to"
    ),
    "the jury's decision is final": "žūrijas lēmums ir galīgs",
    "the jury's decision is final: it stays on the record": (
        "žūrijas lēmums ir galīgs: tas paliek protokolā"
    ),
    "the match already exists": "mačs jau pastāv",
    "the match is over: it was played to its length": (
        "mačs ir beidzies: tas izspēlēts līdz savam garumam"
    ),
    "the match was played to its length": "mačs izspēlēts līdz savam garumam",
    "the next round has started: the result stands": (
        "nākamā kārta ir sākusies: rezultāts paliek spēkā"
    ),
    "the opening roll is made": "sākuma metiens ir izdarīts",
    "the reasons are reported to KSI": "par iemesliem ziņo KSI",
    "the result has been reported": "par rezultātu ir ziņots",
    "the ruling stands: there is nothing to carry out": "lēmums paliek spēkā: nav ko izpildīt",
    "the score is level: neither player is behind": (
        "rezultāts ir vienāds: neviens spēlētājs neatpaliek"
    ),
    "the set-up has already been settled": "sākuma izkārtojums jau ir noteikts",
    "the winner reports a finished match": "par beigušos maču ziņo uzvarētājs",
    "this player has confirmed the score already": "šis spēlētājs jau ir apstiprinājis rezultātu",
    "time left for both players": "abu spēlētāju atlikušais laiks",
    "two different players": "divi dažādi spēlētāji",
    "votes within the jury's size": "balsis žūrijas lieluma robežās",
    "who said it and what was said": "kas to teica un ko teica",
    "{} pause(s) each in a {}-point match": "{0} pauze(s) katram {1} punktu mačā",
    "{} s of the forced wait are left": "no piespiedu gaidīšanas atlikušas {0} s",
    "{}/{} does not move a checker forward": "{0}/{1} nevirza kauliņu uz priekšu",
    "no checker on {}": "punktā {0} nav kauliņa",
    "{} is held by the opponent": "punkts {0} pieder pretiniekam",
}
