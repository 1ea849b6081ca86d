"""The engine's refusals in Estonian and Latvian (`refusals_is.words(message, "et" | "lv")`),
in the words the Baltic backgammon faces use: et matš (match), geim (game), nupp (checker),
kuubik (cube), peakohtunik (TD), žürii (jury), vaatleja (monitor); lv mačs, partija, kauliņš,
kubs, turnīra direktors, žūrija, novērotājs. Pure data, keyed like `refusals_is.ICELANDIC`:
English as the engine raises it, "{}" for a figure → (Estonian, Latvian), "{0}", "{1}"…
"""

from __future__ import annotations

BALTIC: dict[str, tuple[str, str]] = {
    "0 to 15 checkers a side": (
        "0 kuni 15 nuppu kummalgi poolel",
        "no 0 līdz 15 kauliņiem katrā pusē",
    ),
    "1 to the match length in points": (
        "1 kuni matši pikkus punktides",
        "no 1 līdz mača garumam punktos",
    ),
    "a concession is waiting for an answer": ("loobumine ootab vastust", "padošanās gaida atbildi"),
    "a cube value is 2, 4, 8, 16 ...": (
        "kuubiku väärtus on 2, 4, 8, 16 …",
        "kuba vērtība ir 2, 4, 8, 16 …",
    ),
    "a double comes before rolling": (
        "kahekordistatakse enne veeretamist",
        "dubulto pirms metiena",
    ),
    "a double is waiting for take or drop": (
        "kahekordistamine ootab vastuvõtmist või loobumist",
        "dubultojums gaida pieņemšanu vai atteikumu",
    ),
    "a jury is three or five different people": (
        "žüriis on kolm või viis eri inimest",
        "žūrijā ir trīs vai pieci dažādi cilvēki",
    ),
    "a match is 1 to {} points": ("matš on 1 kuni {0} punkti", "mačs ir no 1 līdz {0} punktiem"),
    "a monitor's name; requested by A, B or the TD": (
        "vaatleja nimi; taotleja A, B või peakohtunik",
        "novērotāja vārds; pieprasa A, B vai turnīra direktors",
    ),
    "a player doubles on his own turn": (
        "mängija kahekordistab oma käigul",
        "spēlētājs dubulto savā gājienā",
    ),
    "a report says what the monitor saw": (
        "aruanne ütleb, mida vaatleja nägi",
        "ziņojumā ir tas, ko novērotājs redzēja",
    ),
    "a ruling says what was decided and why": (
        "otsus ütleb, mida otsustati ja miks",
        "lēmumā ir tas, kas nolemts un kāpēc",
    ),
    "a scoresheet of a match in progress": (
        "käimasoleva matši protokoll",
        "notiekoša mača protokols",
    ),
    "a side is 26 counts (off, points 1-24, bar)": (
        "pool on 26 arvu (välja viidud, punktid 1-24, latt)",
        "puse ir 26 skaitļi (izvesti, punkti 1-24, bārs)",
    ),
    "a table 1 to {}, or none": (
        "laud 1 kuni {0} või mitte ükski",
        "galds no 1 līdz {0} vai neviens",
    ),
    "a winner's score of the match length, and why": (
        "võitja punktid matši pikkuses ja põhjus",
        "uzvarētāja punkti mača garumā un iemesls",
    ),
    "already accepted by rolling": ("juba veeretamisega vastu võetud", "jau pieņemts ar metienu"),
    "already permitted": ("juba lubatud", "jau atļauts"),
    "an appeal follows a ruling at once": (
        "apellatsioon järgneb otsusele kohe",
        "apelācija seko lēmumam nekavējoties",
    ),
    "at least one pause": ("vähemalt üks paus", "vismaz viena pauze"),
    "both sides on one point": ("mõlemad pooled ühel punktil", "abas puses vienā punktā"),
    "conduct, aids or equipment": (
        "käitumine, abivahendid või varustus",
        "uzvedība, palīglīdzekļi vai aprīkojums",
    ),
    "device time runs forward": ("seadme aeg liigub edasi", "ierīces laiks iet uz priekšu"),
    "dice are exchanged at the start of a game": (
        "täringud vahetatakse geimi alguses",
        "kauliņus apmaina partijas sākumā",
    ),
    "dice show 1 to 6, not {}": (
        "täringul on 1 kuni 6, mitte {0}",
        "metamajiem kauliņiem ir no 1 līdz 6, nevis {0}",
    ),
    "it is the opponent's turn": ("käik on vastasel", "gājiens ir pretiniekam"),
    "neither the TD nor a player sits on the jury": (
        "ei peakohtunik ega mängija ei istu žüriis",
        "ne turnīra direktors, ne spēlētājs nesēž žūrijā",
    ),
    "no appeal to decide": ("otsustatavat apellatsiooni pole", "nav apelācijas, par ko lemt"),
    "no clock in this match": ("selles matšis pole kella", "šajā mačā nav pulksteņa"),
    "no concession to answer": ("vastatavat loobumist pole", "nav padošanās, uz ko atbildēt"),
    "no concession while checkers can still be hit": (
        "loobuda ei saa, kui nuppe saab veel lüüa",
        "padoties nevar, kamēr kauliņus vēl var sist",
    ),
    "no dispute waiting for a ruling": (
        "otsust ootavat vaidlust pole",
        "nav strīda, kas gaida lēmumu",
    ),
    "no double after an invalid roll": (
        "pärast kehtetut veeretust ei kahekordistata",
        "pēc nederīga metiena nedubulto",
    ),
    "no double has been taken in this game": (
        "selles geimis pole kahekordistamist vastu võetud",
        "šajā partijā neviens dubultojums nav pieņemts",
    ),
    "no double to answer": ("vastatavat kahekordistamist pole", "nav dubultojuma, uz ko atbildēt"),
    "no early roll to reject": (
        "tagasilükatavat varajast veeretust pole",
        "nav priekšlaicīga metiena, ko noraidīt",
    ),
    "no game is in progress": ("ükski geim ei käi", "neviena partija nenotiek"),
    "no illegal play of the opponent to answer": (
        "vastase reeglitevastast käiku, millele vastata, pole",
        "nav pretinieka nelikumīga gājiena, uz ko atbildēt",
    ),
    "no match has been created": ("matši pole loodud", "mačs nav izveidots"),
    "no match in progress": ("ükski matš ei käi", "neviens mačs nenotiek"),
    "no monitor has been appointed to this match": (
        "sellele matšile pole vaatlejat määratud",
        "šim mačam nav iecelts novērotājs",
    ),
    "no permission to end": ("lõpetamise luba pole", "nav atļaujas beigt"),
    "no player's time has run out": (
        "ühegi mängija aeg pole otsa saanud",
        "nevienam spēlētājam laiks nav beidzies",
    ),
    "no reported result to confirm": (
        "kinnitatavat teatatud tulemust pole",
        "nav paziņota rezultāta, ko apstiprināt",
    ),
    "not the moment to roll": ("praegu ei veeretata", "tagad nav laiks mest"),
    "not this player's move": ("see pole selle mängija käik", "tas nav šī spēlētāja gājiens"),
    "nothing to undo": ("pole midagi tagasi võtta", "nav ko atsaukt"),
    "only a finished match's result is corrected": (
        "parandada saab ainult lõppenud matši tulemust",
        "labot var tikai beigušās mača rezultātu",
    ),
    "only between games": ("ainult geimide vahel", "tikai starp partijām"),
    "only entries of the current game can be undone": (
        "tagasi võtta saab ainult käimasoleva geimi kandeid",
        "atsaukt var tikai pašreizējās partijas ierakstus",
    ),
    "only the player whose time runs presses": (
        "kella vajutab ainult mängija, kelle aeg jookseb",
        "pulksteni spiež tikai spēlētājs, kura laiks iet",
    ),
    "pauses are taken between games": (
        "pausid võetakse geimide vahel",
        "pauzes ņem starp partijām",
    ),
    "penalty points start at 5 minutes": (
        "trahvipunktid algavad 5 minutist",
        "soda punkti sākas no 5 minūtēm",
    ),
    "players may not agree the result of a game": (
        "mängijad ei tohi geimi tulemuses kokku leppida",
        "spēlētāji nedrīkst vienoties par partijas rezultātu",
    ),
    "players may not agree the result of a match": (
        "mängijad ei tohi matši tulemuses kokku leppida",
        "spēlētāji nedrīkst vienoties par mača rezultātu",
    ),
    "scoresheets are compared after a game": (
        "protokolle võrreldakse pärast geimi",
        "protokolus salīdzina pēc partijas",
    ),
    "side must be A or B, not {}": (
        "pool peab olema A või B, mitte {0}",
        "pusei jābūt A vai B, nevis {0}",
    ),
    "side must be A, B or empty": ("pool peab olema A, B või tühi", "pusei jābūt A, B vai tukšai"),
    "single, gammon or backgammon": (
        "lihtvõit, gammon või backgammon",
        "vienkāršā uzvara, gammon vai backgammon",
    ),
    "stop the clock to ask for a correction": (
        "paranduse küsimiseks peata kell",
        "lai lūgtu labojumu, apturiet pulksteni",
    ),
    "testimony is heard in a dispute": (
        "tunnistusi kuulatakse vaidluses",
        "liecības uzklausa strīdā",
    ),
    "the TD has been called": ("peakohtunik on kutsutud", "turnīra direktors ir izsaukts"),
    "the board is frozen until the dispute is decided": (
        "laud on külmutatud, kuni vaidlus on otsustatud",
        "galds ir iesaldēts, līdz strīds ir izšķirts",
    ),
    "the clock is already running": ("kell juba käib", "pulkstenis jau iet"),
    "the clock is running": ("kell käib", "pulkstenis iet"),
    "the clock is stopped": ("kell on peatatud", "pulkstenis ir apturēts"),
    "the clock stops only in the eight cases": (
        "kell peatub ainult kaheksal juhul",
        "pulkstenis apstājas tikai astoņos gadījumos",
    ),
    "the cube already shows {}": ("kuubik näitab juba {0}", "kubs jau rāda {0}"),
    "the cube is on the opponent's side": ("kuubik on vastase poolel", "kubs ir pretinieka pusē"),
    "the game in progress is played to its end": (
        "käimasolev geim mängitakse lõpuni",
        "notiekošo partiju izspēlē līdz galam",
    ),
    "the illegal play bore off the last checker: accept or correct it first": (
        "reeglitevastane käik viis välja viimase nupu: võta see esmalt vastu või paranda",
        "nelikumīgais gājiens izveda pēdējo kauliņu: vispirms pieņemiet vai labojiet to",
    ),
    "the jury's decision is final": ("žürii otsus on lõplik", "žūrijas lēmums ir galīgs"),
    "the jury's decision is final: it stays on the record": (
        "žürii otsus on lõplik: see jääb kirja",
        "žūrijas lēmums ir galīgs: tas paliek protokolā",
    ),
    "the match already exists": ("matš on juba olemas", "mačs jau pastāv"),
    "the match is over: it was played to its length": (
        "matš on läbi: see mängiti täispikkuses",
        "mačs ir beidzies: tas izspēlēts līdz savam garumam",
    ),
    "the match was played to its length": (
        "matš mängiti täispikkuses",
        "mačs izspēlēts līdz savam garumam",
    ),
    "the next round has started: the result stands": (
        "järgmine voor on alanud: tulemus jääb kehtima",
        "nākamā kārta ir sākusies: rezultāts paliek spēkā",
    ),
    "the opening roll is made": ("avaveeretus on tehtud", "sākuma metiens ir izdarīts"),
    "the reasons are reported to KSI": ("põhjustest teatatakse KSI-le", "par iemesliem ziņo KSI"),
    "the result has been reported": ("tulemusest on teatatud", "par rezultātu ir ziņots"),
    "the ruling stands: there is nothing to carry out": (
        "otsus jääb kehtima: täita pole midagi",
        "lēmums paliek spēkā: nav ko izpildīt",
    ),
    "the score is level: neither player is behind": (
        "seis on viigis: kumbki mängija pole taga",
        "rezultāts ir vienāds: neviens spēlētājs neatpaliek",
    ),
    "the set-up has already been settled": (
        "lähteseis on juba paika pandud",
        "sākuma izkārtojums jau ir noteikts",
    ),
    "the winner reports a finished match": (
        "lõppenud matšist teatab võitja",
        "par beigušos maču ziņo uzvarētājs",
    ),
    "this player has confirmed the score already": (
        "see mängija on seisu juba kinnitanud",
        "šis spēlētājs jau ir apstiprinājis rezultātu",
    ),
    "time left for both players": (
        "mõlema mängija järelejäänud aeg",
        "abu spēlētāju atlikušais laiks",
    ),
    "two different players": ("kaks eri mängijat", "divi dažādi spēlētāji"),
    "votes within the jury's size": (
        "hääli kuni žürii suuruseni",
        "balsis žūrijas lieluma robežās",
    ),
    "who said it and what was said": ("kes ütles ja mida öeldi", "kas to teica un ko teica"),
    "{} pause(s) each in a {}-point match": (
        "{0} paus(i) kummalegi {1}-punktilises matšis",
        "{0} pauze(s) katram {1} punktu mačā",
    ),
    "{} s of the forced wait are left": (
        "sunnitud ootamisest on jäänud {0} s",
        "no piespiedu gaidīšanas atlikušas {0} s",
    ),
    "{}/{} does not move a checker forward": (
        "{0}/{1} ei vii nuppu edasi",
        "{0}/{1} nevirza kauliņu uz priekšu",
    ),
    "no checker on {}": ("punktil {0} pole nuppu", "punktā {0} nav kauliņa"),
    "{} is held by the opponent": ("punkt {0} on vastase käes", "punkts {0} pieder pretiniekam"),
}
