"""Regelheftet på norsk bokmål: kortstokken, Idiot, Kraftidioten og Strømkrig.

The rules are written in this project's own words from RULES.md and the user's seeds.
This module is only the text; :mod:`booklet_rules` builds the booklet from it, and a
``{field}`` in a sentence is filled there with the cards of the deck being printed.
"""

from __future__ import annotations

from kraftstokk.render.booklet_rules import RulesText

TEXT = RulesText(
    subtitle="Spilleregler",
    edition="Utgave {edition}",
    contents="Innhold",
    # --- Kortstokken ------------------------------------------------------------------
    deck_heading="Kortstokken",
    deck_intro=(
        "{title} har 55 kort: 52 kraftverkkort og 3 jokere. Hvert "
        "kraftverkkort er et norsk vannkraftverk, og samtidig et helt vanlig spillkort "
        "med farge (spar, hjerter, kløver eller ruter) og verdi fra ess til konge. Derfor "
        "kan stokken brukes til alle kortspill du kjenner fra før, og i tillegg til to "
        "spill der kraftverkenes tall avgjør: Kraftidioten og Strømkrig.",
    ),
    card_heading="Hva står på et kort?",
    card_corners=(
        "Øverst i hjørnene står farge og verdi: A er ess (verdi 1, men i Idiot det "
        "høyeste kortet), J er knekt (11), Q er dame (12) og K er konge (13). Midt på "
        "kortet står navnet på kraftverket og tre tall, alltid med enhet:"
    ),
    card_figures=(
        "<b>Effekt (MW)</b>: hvor mye kraft verket kan levere på én gang, målt i "
        "megawatt. Det er størrelsen på turbinene og generatorene.",
        "<b>Produksjon (GWh)</b>: hvor mye strøm verket lager i et vanlig år, målt i "
        "gigawattimer. Det avhenger av hvor mye vann som renner gjennom det.",
        "<b>Fallhøyde (m)</b>: hvor mange meter vannet faller fra inntaket til "
        "turbinen. Høyt fall gir mye kraft av lite vann.",
    ),
    card_marks_intro="Merkene på kortet hjelper deg å se fort hva kortet er godt for:",
    card_marks=(
        "Stripen under hvert tall: jo lengre den er, jo høyere er tallet sammenlignet "
        "med resten av stokken.",
        "Gullfarget stripe, stjerne og <b>TOPP 3</b>: kortet har nr. 1, 2 eller 3 i "
        "kategorien (Kraftidioten).",
        "Overstreket øye og <b>USYNLIG</b>: kortet har nr. 50, 51 eller 52 i "
        "kategorien (Strømkrig).",
        "Nederst står en kort påminnelse når kortet har en spesialkraft i Strømkrig, "
        "og hvor tallene kommer fra.",
    ),
    nr_heading="Hva betyr nr.?",
    nr_meaning=(
        "Ved siden av hvert tall står <b>nr.</b>: plassen kraftverket har blant de 52 i "
        "stokken i akkurat den kategorien. Nr. 1 har det høyeste tallet, nr. 52 det "
        "laveste. Hver kategori har sin egen rekkefølge, så ett og samme kort kan være "
        "stort i én kategori og lite i en annen. To kort har aldri samme nr. i samme "
        "kategori: har to kraftverk helt like tall, avgjør en fast regel hvem som får "
        "det laveste nummeret."
    ),
    nr_example=(
        "Eksempel: {plant} har nr. {nr} i produksjon med "
        "{figure}. Det betyr at {more} av kraftverkene i stokken "
        "produserer mer, og {less} produserer mindre. I effekt har det samme kortet "
        "nr. {mw_nr}, og i fallhøyde nr. "
        "{head_nr}."
    ),
    special_heading="Spesialkortene i denne stokken",
    special_intro=(
        "Noen kort har egne krefter i ett av spillene. Her er de, slik de ser ut i akkurat "
        "denne utgaven av stokken. Reglene for hvert spill forklarer hva de gjør."
    ),
    special_invisible=(
        "<b>Usynlige kort</b> (Strømkrig): kortene med nr. 50, 51 eller 52 i én av de "
        "tre kategoriene. De kan legges ved siden av bunken når som helst i din tur."
    ),
    special_top=(
        "<b>Topp 3</b> (Kraftidioten): kortene med nr. 1, 2 eller 3 i en kategori. Sier "
        "du at du legger et av dem i kategorien det spilles om, kan bunken brennes."
    ),
    special_jokers=(
        "<b>De {count} jokerne</b> er like og har verken kraftverk eller tall. I "
        "Kraftidioten og Strømkrig brenner de bunken, og i Strømkrig gjør <b>kløver ess, "
        "2, 3 og 4</b> det samme. I Idiot tas jokerne ut av stokken før spillet."
    ),
    joker_caption="joker ({count} stk.)",
    special_twos=(
        "<b>Toerne</b>: i Strømkrig nuller en toer ut kortet under, slik at neste spiller "
        "kan legge hva som helst. I Idiot kan en toer legges på alt."
    ),
    war_partners=(
        "<b>Krigspartnere</b> (Strømkrig): kort med samme produksjon når tallet rundes "
        "<i>ned</i> til nærmeste tier (879\u00a0GWh og 871\u00a0GWh blir begge 870). "
        "Legges det ene på det andre, blir det strømkrig."
    ),
    war_partners_some=" I denne stokken gjelder det disse gruppene:",
    war_partners_none=" I denne stokken har ingen kort samme tier.",
    words_heading="Ord vi bruker",
    words=(
        "<b>Trekkbunken</b>: kortene som ligger igjen med baksiden opp etter "
        "utdelingen. Man trekker fra toppen.",
        "<b>Spillbunken</b> (eller bare <i>bunken</i>): kortene som spilles ut midt "
        "på bordet. Neste kort måles mot det øverste kortet i bunken.",
        "<b>Ta inn bunken</b>: ta hele spillbunken opp på hånden.",
        "<b>Brenne bunken</b>: hele spillbunken legges til side og er ute av spillet "
        "resten av runden.",
        "<b>Fylle opp</b>: trekke fra trekkbunken til du har tre kort på hånden, så "
        "lenge det er kort igjen der.",
    ),
    # --- Idiot (ID-1 .. ID-13) --------------------------------------------------------
    idiot_intro=(
        "Idiot er et klassisk norsk kortspill. Her teller bare verdien på kortene; "
        "kraftverkenes tall har ingen betydning. Det gjelder å bli kvitt kortene sine så "
        "fort som mulig, og for all del ikke være den siste."
    ),
    players_heading="Spillere, kort og mål",
    idiot_players=(
        "2 til 5 spillere.",
        "Ta ut de tre jokerne; det spilles med 52 kort.",
        "Rekkefølgen fra lavest til høyest er 2, 3, 4, 5, 6, 7, 8, 9, 10, knekt, dame, "
        "konge, ess. Esset er altså høyest (det teller som 14).",
        "Den første som blir kvitt alle kortene sine, vinner. Den siste som sitter "
        "igjen med kort, er Idioten.",
    ),
    deal_heading="Utdeling",
    idiot_deal=(
        "Hver spiller får tre kort med baksiden opp i en rad foran seg på bordet. Oppå "
        "hvert av dem legges ett kort med forsiden opp, så alle kan se dem. Til slutt får "
        "hver spiller tre kort på hånden. Resten av kortene er trekkbunken.",
        "Før spillet begynner, kan hver spiller bytte kort mellom hånden og de tre "
        "synlige bordkortene, så mange som man vil. Det lønner seg å legge høye kort og "
        "spesialkort synlig på bordet til senere.",
    ),
    idiot_start_heading="Hvem begynner?",
    idiot_start=(
        "Den som har det laveste vanlige kortet på hånden, begynner. Treeren er lavest; "
        "toere og tiere teller ikke. Har flere spillere like lave kort, begynner den av "
        "dem som har lavest neste kort. Er det fortsatt likt, begynner den som sitter "
        "nærmest til venstre for giveren."
    ),
    turn_heading="En tur",
    idiot_turn=(
        "Legg ett eller flere kort med samme verdi på bunken. Verdien må være minst like "
        "høy som det øverste kortet i bunken; like høy er lov. Er bunken tom, kan du "
        "legge hva du vil. Etterpå fyller du opp til tre kort på hånden fra trekkbunken, "
        "så lenge den varer. Så går turen videre til neste spiller, med klokka."
    ),
    idiot_special_heading="Spesialkort i Idiot",
    idiot_special=(
        "<b>2</b> kan legges på hva som helst. Neste spiller kan da legge hvilket kort som helst.",
        "<b>10</b> kan legges på hva som helst og brenner bunken. Du som la tieren, "
        "legger straks et nytt kort (hva du vil) og starter en ny bunke.",
        "<b>Fire like</b>: ligger fire kort med samme verdi øverst i bunken etter "
        "hverandre, brennes bunken. Det spiller ingen rolle om de kom fra én eller "
        "flere spillere. Den som la det fjerde kortet, starter på nytt.",
    ),
    idiot_stuck_heading="Når du ikke kan legge",
    idiot_stuck=(
        "Kan du ikke legge noe, må du velge: enten tar du inn hele bunken, eller du tar "
        "en <b>sjanse</b>. Da snur du det øverste kortet i trekkbunken. Passer det, må det "
        "legges på bunken. Passer det ikke, tar du både det kortet og hele bunken inn på "
        "hånden. Du har også lov til å ta inn bunken selv om du kunne ha lagt noe. Når "
        "bunken er tatt inn, går turen videre, og neste spiller begynner på en tom bunke."
    ),
    missing="<i>Denne kortstokken har ingen kort som passer til dette eksempelet.</i>",
    and_=" og ",
    idiot_example_missing_title="Eksempel",
    idiot_example_title="Eksempel: en dame ligger øverst",
    idiot_example_captions=("øverst", "lov: lik", "lov: høyere", "lov: høyest"),
    idiot_example=(
        "Øverst i bunken ligger {top}. Da kan du legge "
        "{allowed}: en dame er like høy, en konge og et ess er høyere. Også "
        "{special} kan legges. Tieren brenner bunken, og du legger igjen.",
        "Du kan ikke legge {refused}: de er lavere enn damen. Har du bare slike "
        "kort, må du ta inn bunken eller ta en sjanse.",
        "Kraftverkene på kortene betyr ingenting her: en dame er en dame, "
        "uansett hvor mye strøm den lager.",
    ),
    idiot_table_heading="Bordkortene",
    idiot_table=(
        "Når trekkbunken er tom og du ikke har flere kort på hånden, spiller du fra "
        "bordet. Først de synlige kortene; har du flere like, kan de legges sammen. Når "
        "de er borte, spiller du de skjulte kortene ett om gangen, uten å se på dem "
        "først: snu ett og legg det på bunken. Passer det ikke, tar du det kortet og "
        "hele bunken inn på hånden, og må spille ut hånden før du kan fortsette med "
        "bordkortene."
    ),
    end_heading="Slutten",
    idiot_end=(
        "Når du ikke har flere kort på hånden, ingen synlige og ingen skjulte bordkort, "
        "er du ute. Den første som går ut, vinner. De andre fortsetter til bare én har "
        "kort igjen: Idioten. Går noen ut ved å brenne bunken, starter neste spiller den "
        "nye bunken."
    ),
    house_heading="Husregler",
    house_intro=(
        "Idiot spilles litt forskjellig fra sted til sted. Bli enige før dere begynner "
        "om dere vil bruke noen av disse variantene:"
    ),
    house_rules=(
        "<b>Toeren gir ny tur</b>: den som la toeren, legger selv et nytt kort, hvilket som helst.",
        "<b>Ikke gå ut på en toer</b>: det siste kortet du spiller, kan ikke være en toer.",
        "<b>Ingen bytting</b>: ingen får bytte kort mellom hånd og bord før start.",
        "<b>Serier</b>: du kan legge en rekke med stigende verdi i samme tur, for "
        "eksempel 3, 4, 5. Toere og tiere kan ikke være med i en rekke; rekken hopper "
        "over tieren, så etter 9 kommer knekt. Har du bare skjulte bordkort igjen, kan "
        "du snu ett: fortsetter det rekken, legges det i den, ellers tar du bunken.",
        "<b>Snik-treer</b>: en treer kan legges under bunken i stedet for oppå.",
    ),
    # --- Kraftidioten (KI-1 .. KI-9) --------------------------------------------------
    ki_intro=(
        "Et bløffespill for dem som kan (eller later som de kan) sine kraftverk. Du "
        "legger kortene med baksiden opp og sier hvilket kraftverk det er: du «søker "
        "konsesjon». Det du sier, trenger ikke være sant, men blir du avslørt, straffes "
        "det."
    ),
    ki_players=(
        "2 til 10 spillere. Alle 55 kort er med.",
        "Du skal bli kvitt hele hånden ved å søke konsesjon for kortene, ett og ett. "
        "Den første som står uten kort, vinner. Den som blir sittende igjen med kort "
        "til slutt, er kraftidioten.",
        "Spillet handler om de tre kategoriene effekt (MW), produksjon (GWh) og fallhøyde (m).",
    ),
    ki_deal=(
        "Legg de tre jokerne til side og stokk de 52 kraftverkkortene. Del ut tre kort "
        "til hver spiller. Bland så jokerne inn i resten, og legg kortene med baksiden "
        "opp som trekkbunke.",
    ),
    ki_turn_heading="En tur: søke konsesjon",
    ki_turn=(
        "Spilleren til venstre for giveren begynner, og turen går med klokka. "
        "Den som starter en ny bunke, velger først kategori. Så legger spilleren ett kort "
        "med baksiden opp midt på bordet og sier navnet på kraftverket og tallet i "
        "kategorien, med enhet, for eksempel «{name}, "
        "{figure}». Til slutt trekker spilleren fra trekkbunken, "
        "slik at det er minst tre kort på hånden.",
        "Neste spiller må søke konsesjon for et kraftverk med minst like høyt tall i "
        "samme kategori, legge kortet med baksiden opp på bunken, si navn og tall med "
        "enhet, og fylle opp. Slik går det rundt bordet. Ta med enheten hver gang (MW, GWh "
        "eller m), så ingen er i tvil om hvilken kategori som gjelder.",
    ),
    ki_stuck_heading="Når du ikke kan (eller vil)",
    ki_stuck_intro="Har du ikke et kort som er høyt nok, har du tre muligheter:",
    ki_stuck=(
        "<b>Ta inn bunken.</b> Det har du lov til når som helst i din tur, også som taktikk.",
        "<b>Trekk en sjanse.</b> Ta det øverste kortet i trekkbunken og søk ærlig "
        "konsesjon for det, med riktig navn og tall. Er tallet lavere enn forrige "
        "søknad, tar du inn bunken med det kortet. Trekker du en joker, legges den "
        "som joker (se under).",
        "<b>Lyv.</b> Legg hvilket som helst kort med baksiden opp og si navnet på et "
        "kraftverk i stokken, også kortets eget, og et tall som er høyt nok. Feil navn "
        "og feil tall er begge løgn. Her har den som kan kraftverkene sine, en stor fordel.",
    ),
    ki_after_take=(
        "Når noen har tatt inn bunken, starter neste spiller en ny bunke og velger "
        "kategori på nytt."
    ),
    challenge_heading="Anke",
    challenge=(
        "Tror du at noen lyver, kan du <b>anke</b> den siste søknaden før neste kort er "
        "lagt. Kortet snus. Det er løgn hvis kortet ikke er kraftverket som ble nevnt, "
        "eller hvis tallet ikke er kraftverkets tall."
    ),
    challenge_outcomes=(
        "<b>Løgn</b>: den som la kortet, tar inn bunken. Du som anket, starter den nye bunken.",
        "<b>Sant</b>: du som anket, tar inn bunken. Spilleren etter den som la "
        "kortet, starter den nye bunken.",
        "Vil flere anke samtidig, er det den første i rekkefølgen etter den som la "
        "kortet, som får gjøre det.",
    ),
    claims_missing_title="Eksempel: en anke",
    claims_title="Eksempel: en løgn blir avslørt",
    claims_story=(
        "Kari, Ola og Per spiller. Kari starter og velger {category}. Hun legger "
        "{first} med baksiden opp og sier «"
        "{first_name}, {first_figure}». "
        "Det er sant. Ola legger {second} og sier «"
        "{second_name}, {second_figure}», "
        "som også er sant og høyere.",
        "Per har ikke noe høyt nok. Han legger {hidden} med "
        "baksiden opp, men sier «{claimed_name}, "
        "{claimed_figure}». Ola anker. Kortet snus: det er "
        "{hidden_name} med "
        "{hidden_figure}, ikke "
        "{claimed_name}.",
    ),
    claims_captions=("Kari", "Ola", "Per (snudd)"),
    claims_outcome=(
        "Anken får medhold: Per tar inn alle tre kortene, og Ola, som anket, "
        "starter en ny bunke og velger kategori. Hadde kortet vært det Per sa, "
        "måtte Ola ha tatt inn bunken, og Kari, som sitter etter Per, hadde "
        "startet den nye."
    ),
    joker_heading="Jokeren",
    joker=(
        "En joker vises for alle når den legges, og bunken brennes. Den som la jokeren, "
        "legger straks et nytt kort og velger kategori. Men du får ikke legge en joker "
        "når du har to kort eller færre på hånden. Gjør du det likevel, brennes bunken "
        "like fullt, men du må trekke tre tilfeldige kort fra alle de brente kortene som "
        "straff, jokerne også (alle, hvis det er færre enn tre)."
    ),
    top_heading="Topp 3 brenner bunken",
    top=(
        "Sier du at kortet ditt har nr. 1, 2 eller 3 i kategorien det spilles om, brennes "
        "bunken hvis ingen anker. Du trenger ikke vise kortet, men vent litt (tell til tre) "
        "så de andre får tid til å anke."
    ),
    top_outcomes=(
        "Ingen anker: bunken brennes, og du legger et nytt kort og velger kategori.",
        "Noen anker, og det var sant: den som anket, tar inn bunken som skulle "
        "brennes. Du legger et nytt kort og velger kategori.",
        "Noen anker, og det var løgn: du tar inn bunken, og den som anket, starter den nye.",
    ),
    top_example_title="Eksempel: topp 3",
    top_example=(
        "Det spilles om {category}, og øverst ligger en søknad på "
        "{under}. Ola legger "
        "{top} og sier «{name}, "
        "{figure}, nr.\u00a0{nr}». Han venter litt."
    ),
    top_example_under="under",
    top_example_outcome=(
        "Ingen anker, så bunken brennes, og Ola legger et nytt kort og velger "
        "kategori. Hadde Per anket, ville kortet blitt snudd og vist seg å "
        "være sant: da måtte Per ha tatt inn bunken, og Ola hadde lagt på nytt."
    ),
    ki_end=(
        "Når trekkbunken er tom og du ikke har flere kort på hånden, er du ute, så sant "
        "ingen anker det siste kortet ditt med hell. Blir det avslørt som løgn, får du "
        "bunken tilbake og er med igjen. Den første som går ut, vinner. Spillet fortsetter "
        "til bare én har kort igjen: kraftidioten."
    ),
    # --- Strømkrig (SK-1 .. SK-14) ----------------------------------------------------
    sk_intro=(
        "Et raskt spill for store og små, der produksjonen avgjør: hvert kort må "
        "produsere mer strøm enn det forrige. Like tall og kløver mot kløver gir krig."
    ),
    sk_players=(
        "2 til 6 spillere. Alle 55 kort er med, også jokerne.",
        "Først tom for kort vinner. Den som sitter igjen med kort til slutt, har "
        "tapt strømkrigen og er giver i neste runde.",
    ),
    sk_deal=(
        "Stokk alle kortene og del ut tre til hver. Resten er trekkbunken. Det hjelper å "
        "sortere kortene på hånden etter produksjon (GWh). Giveren begynner.",
    ),
    sk_turn=(
        "Legg et kort som har <b>høyere</b> produksjon enn det øverste kortet i bunken; "
        "likt er ikke nok. Er bunken tom, kan du legge hva du vil. Fyll så opp til tre "
        "kort fra trekkbunken, så lenge det er kort der. Det går fortere hvis du sier "
        "produksjonen høyt når du legger."
    ),
    beat_title="Eksempel: hvilket kort slår hvilket?",
    beat_captions=("øverst", "kan legges", "kan ikke"),
    beat=(
        "Øverst ligger {top}. Du kan legge "
        "{higher}, som produserer mer. Du kan "
        "ikke legge {lower}, som produserer mindre."
    ),
    sk_moves=(
        "<b>Sjanse</b>: i stedet for å legge fra hånden kan du snu det øverste kortet "
        "i trekkbunken rett på bunken. Kortet beholder kreftene sine: en toer kan nulle, "
        "joker og kløver ess til 4 brenner, et usynlig kort legges ved siden av bunken, "
        "og et kort med samme tier gir krig. Bare et kort som ikke kan brukes på noen "
        "måte, tar du inn sammen med bunken.",
        "<b>Ta inn</b>: kan eller vil du ikke legge, tar du inn hele bunken. Neste "
        "spiller starter en ny.",
        "<b>Rekker</b>: to eller flere kort med nr. i produksjon som følger etter "
        "hverandre (for eksempel nr. 15 og nr. 14) kan legges i samme tur. Legg det "
        "med lavest produksjon først; det må slå det øverste kortet. Det høyeste "
        "kortet i rekken blir det nye øverste. Gir det første kortet krig med det "
        "øverste, blir det krig som vanlig.",
    ),
    run_title="Eksempel: en rekke",
    run=(
        "Øverst ligger {top}. Du har "
        "{first} med nr.\u00a0{first_nr} og "
        "{second} med nr.\u00a0{second_nr} i produksjon. "
        "Numrene følger etter hverandre, så du legger begge: først "
        "{first_name} ({first_figure}), "
        "som slår det øverste, så {second_name} "
        "({second_figure}). Neste spiller må slå "
        "{second_figure}."
    ),
    war_heading="Strømkrig!",
    war_when_intro="Det blir krig når ett av disse skjer:",
    war_when=(
        "Noen legger en <b>kløver på en kløver</b>. Kortet må fortsatt ha høyere "
        "produksjon. Kløver ess, 2, 3 og 4 starter ikke krig (de brenner bunken).",
        "Noen legger et kort med <b>samme produksjon rundet ned til nærmeste tier</b> "
        "som kortet under (879 og 871\u00a0GWh er begge 870). Her kan kortet som legges, "
        "godt være lavere enn det under.",
    ),
    war_rules=(
        "Den som la kortet, utfordrer til krig. Den som la kortet under, er også med. "
        "Alle andre kan bli med ved å rope «krig!» før kategorien er valgt. Så velger "
        "utfordreren kategori (produksjon, effekt eller fallhøyde) og legger det første "
        "krigskortet. De andre som er med, legger ett kort hver i vanlig rekkefølge og "
        "fyller opp fra trekkbunken så lenge den varer. Et kort lagt på ditt eget kort "
        "gir ikke krig, og heller ikke ditt siste kort når trekkbunken er tom (da er du "
        "ute).",
        "Den som la det <b>laveste</b> tallet i den valgte kategorien, taper krigen og "
        "tar inn hele bunken med krigskortene. Har flere det samme laveste tallet, går "
        "krigen om igjen mellom dem. En joker teller som lavest i krig, og spesialkort "
        "har ingen spesialkraft i krig. Har du ikke noe kort å legge i krigen, tar du inn hele "
        "bunken. Taperen starter den nye bunken.",
    ),
    war_title="Eksempel: krig ({kind})",
    war_kind_tens="samme tier",
    war_tens_start=(
        "Kari, Ola og Per spiller. Kari har lagt {under}. "
        "Ola legger {laid}. Begge rundes ned til "
        "{ten}\u00a0GWh, så det blir krig, selv om Olas kort "
    ),
    war_tens_lower="er lavere.",
    war_tens_not_higher="ikke er høyere.",
    war_kind_clubs="kløver på kløver",
    war_clubs_start=(
        "Kari, Ola og Per spiller. Kari har lagt {under}. "
        "Ola legger {laid} oppå. Det er høyere, og det er kløver på "
        "kløver: krig!"
    ),
    war_captions=("Kari", "Ola", "Ola i krig", "Kari i krig"),
    war_named=(
        "Per vil ikke være med. Ola utfordret, så han velger {category} "
        "og legger {challenger}. Kari svarer med "
        "{defender}."
    ),
    war_result=(
        "{loser} har lavest {category}, taper krigen og tar inn hele "
        "bunken, alle fire kortene. {loser} starter så en ny bunke. Er trekkbunken "
        "tom, er {winner} kvitt to kort; ellers har {winner} fylt opp til tre igjen."
    ),
    sk_special_heading="Spesialkort i Strømkrig",
    sk_special=(
        "<b>Joker og kløver ess, 2, 3 og 4</b>: kan legges uansett hva som ligger "
        "øverst, og bunken brennes. Du fyller opp og starter en ny bunke selv (er du "
        "da tom for kort, er du ute, og neste starter).",
        "<b>Toerne</b>: kan legges uansett hva som ligger øverst. Produksjonen til "
        "kortet under teller da som null, så neste spiller kan legge hvilket kort "
        "som helst.",
        "<b>Usynlige kort</b> (nr. 50, 51 eller 52 i produksjon, effekt eller "
        "fallhøyde): kan legges i din tur uansett hva som ligger øverst. Kortet "
        "legges ved siden av bunken, og neste spiller må slå kortet som lå øverst "
        "før det. <i>Husregel</i> hvis dere vil: bare nr. 50, 51 og 52 i produksjon "
        "er usynlige.",
        "Har et kort flere krefter (kløver 2 både brenner og nuller), velger du "
        "selv hvilken du bruker.",
    ),
    reset_title="Eksempel: toeren",
    reset=(
        "Øverst ligger {top}, et av de største "
        "kraftverkene. Ola legger {special}. Nå teller "
        "{top_name} som null, og Per kan legge "
        "{follow}, selv om det er lite."
    ),
    invisible_title="Eksempel: et usynlig kort",
    invisible_reason="nr.\u00a0{nr} i {category}",
    invisible=(
        "Øverst ligger {top}. Kari har ikke "
        "noe høyere, men hun har {card}, som har "
        "{reasons}. Det er usynlig: hun legger det ved siden "
        "av bunken og blir kvitt det. Neste spiller må fortsatt slå "
        "{top_name}, for eksempel med "
        "{follow}."
    ),
    sk_end=(
        "Er trekkbunken tom og hånden din også, er du ute. Først ute vinner; den siste "
        "med kort igjen har tapt og gir i neste runde."
    ),
    # --- Tillegg ----------------------------------------------------------------------
    cards_heading="Alle kortene",
    cards_intro=(
        "Alle 55 kort, sortert etter produksjon fra høyest til lavest. Tallene i "
        "kolonnene nr. er plassen i hver kategori (1 = høyest)."
    ),
    cards_headings=("Kort", "Kraftverk", "MW", "nr.", "GWh", "nr.", "m", "nr."),
    figures_heading="Om tallene",
    figures_intro=(
        "Tallene på kortene er hentet fra offentlige data om norske vannkraftverk. De "
        "gjelder dette uttrekket; nyere tall kan avvike. Produksjon er forventet "
        "produksjon i et normalår."
    ),
    source_line="Kilde: {attribution}.",
    licence_line="Lisens: {licence}.",
    snapshot_line="Datauttrekk: {date}, lest fra {source} ({path}).",
    not_given="ikke oppgitt",
    date_unknown="ukjent dato",
)

__all__ = ["TEXT"]
