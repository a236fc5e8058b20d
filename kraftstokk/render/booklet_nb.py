"""Regelheftet på norsk bokmål: kortstokken, Idiot, Kraftidioten og Strømkrig.

The rules are written in this project's own words from RULES.md and the user's seeds;
rule ids in comments point back to RULES.md. Examples come from
:mod:`booklet_examples`, so they show the cards of the deck being printed.
"""

from __future__ import annotations

from kraftstokk.models import CATEGORIES, Card, Deck
from kraftstokk.render import booklet_examples as ex
from kraftstokk.render.booklet_text import (
    Block,
    Bullets,
    CardRow,
    CardTable,
    Contents,
    Example,
    Heading,
    Para,
    TitlePage,
    Words,
    caption,
    card_name,
    escape,
    figure,
    gallery,
    number,
    plant,
    plant_with,
    war_partner_line,
)

CATEGORY_NAMES = {"mw": "effekt", "gwh": "produksjon", "head_m": "fallhøyde"}
MISSING = "<i>Denne kortstokken har ingen kort som passer til dette eksempelet.</i>"


def blocks(deck: Deck, w: Words) -> list[Block]:
    return [
        *_front(deck, w),
        *_deck_chapter(deck, w),
        *_idiot(deck, w),
        *_kraftidioten(deck, w),
        *_stromkrig(deck, w),
        *_appendix(deck, w),
    ]


def _front(deck: Deck, w: Words) -> list[Block]:
    faces = ex.by_production(deck)
    shown = tuple(faces[:1] + faces[len(faces) // 2 : len(faces) // 2 + 1] + deck.jokers[:1])
    return [
        TitlePage(
            title=escape(deck.title),
            subtitle="Spilleregler",
            lines=(
                "Idiot · Kraftidioten · Strømkrig",
                f"Utgave {escape(deck.edition)}",
            ),
            cards=shown,
        ),
        Contents("Innhold"),
    ]


def _deck_chapter(deck: Deck, w: Words) -> list[Block]:
    cards = ex.by_production(deck)
    sample = cards[len(cards) // 3]
    nr = sample.nr.gwh if sample.nr else 0
    out: list[Block] = [
        Heading("Kortstokken"),
        Para(
            f"{escape(deck.title)} har 55 kort: 52 kraftverkkort og 3 jokere. Hvert "
            "kraftverkkort er et norsk vannkraftverk, og samtidig et helt vanlig spillkort "
            "med farge (spar, hjerter, kløver eller ruter) og verdi fra ess til konge. Derfor "
            "kan stokken brukes til alle kortspill du kjenner fra før, og i tillegg til to "
            "spill der kraftverkenes tall avgjør: Kraftidioten og Strømkrig."
        ),
        Heading("Hva står på et kort?", 2),
        CardRow((sample,), ()),
        Para(
            "Øverst i hjørnene står farge og verdi: A er ess (verdi 1, men i Idiot det "
            "høyeste kortet), J er knekt (11), Q er dame (12) og K er konge (13). Midt på "
            "kortet står navnet på kraftverket og tre tall, alltid med enhet:"
        ),
        Bullets(
            (
                "<b>Effekt (MW)</b>: hvor mye kraft verket kan levere på én gang, målt i "
                "megawatt. Det er størrelsen på turbinene og generatorene.",
                "<b>Produksjon (GWh)</b>: hvor mye strøm verket lager i et vanlig år, målt i "
                "gigawattimer. Det avhenger av hvor mye vann som renner gjennom det.",
                "<b>Fallhøyde (m)</b>: hvor mange meter vannet faller fra inntaket til "
                "turbinen. Høyt fall gir mye kraft av lite vann.",
            )
        ),
        Para("Merkene på kortet hjelper deg å se fort hva kortet er godt for:"),
        Bullets(
            (
                "Stripen under hvert tall: jo lengre den er, jo høyere er tallet sammenlignet "
                "med resten av stokken.",
                "Gullfarget stripe, stjerne og <b>TOPP 3</b>: kortet har nr. 1, 2 eller 3 i "
                "kategorien (Kraftidioten).",
                "Overstreket øye og <b>USYNLIG</b>: kortet har nr. 50, 51 eller 52 i "
                "kategorien (Strømkrig).",
                "Nederst står en kort påminnelse når kortet har en spesialkraft i Strømkrig, "
                "og hvor tallene kommer fra.",
            )
        ),
        Heading("Hva betyr nr.?", 2),
        Para(
            "Ved siden av hvert tall står <b>nr.</b>: plassen kraftverket har blant de 52 i "
            "stokken i akkurat den kategorien. Nr. 1 har det høyeste tallet, nr. 52 det "
            "laveste. Hver kategori har sin egen rekkefølge, så ett og samme kort kan være "
            "stort i én kategori og lite i en annen. To kort har aldri samme nr. i samme "
            "kategori: har to kraftverk helt like tall, avgjør en fast regel hvem som får "
            "det laveste nummeret."
        ),
        Para(
            f"Eksempel: {plant(sample, w)} har nr. {nr} i produksjon med "
            f"{figure(sample, 'gwh', w)}. Det betyr at {nr - 1} av kraftverkene i stokken "
            f"produserer mer, og {52 - nr} produserer mindre. I effekt har det samme kortet "
            f"nr. {sample.nr.mw if sample.nr else 0}, og i fallhøyde nr. "
            f"{sample.nr.head_m if sample.nr else 0}."
        ),
        *_special_cards(deck, w),
        Heading("Ord vi bruker", 2),
        Bullets(
            (
                "<b>Trekkbunken</b>: kortene som ligger igjen med baksiden opp etter "
                "utdelingen. Man trekker fra toppen.",
                "<b>Spillbunken</b> (eller bare <i>bunken</i>): kortene som spilles ut midt "
                "på bordet. Neste kort måles mot det øverste kortet i bunken.",
                "<b>Ta inn bunken</b>: ta hele spillbunken opp på hånden.",
                "<b>Brenne bunken</b>: hele spillbunken legges til side og er ute av spillet "
                "resten av runden.",
                "<b>Fylle opp</b>: trekke fra trekkbunken til du har tre kort på hånden, så "
                "lenge det er kort igjen der.",
            )
        ),
    ]
    return out


def _special_cards(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = [
        Heading("Spesialkortene i denne stokken", 2),
        Para(
            "Noen kort har egne krefter i ett av spillene. Her er de, slik de ser ut i akkurat "
            "denne utgaven av stokken. Reglene for hvert spill forklarer hva de gjør."
        ),
        Para(
            "<b>Usynlige kort</b> (Strømkrig): kortene med nr. 50, 51 eller 52 i én av de "
            "tre kategoriene. De kan legges ved siden av bunken når som helst i din tur."
        ),
    ]
    out += gallery([(category, ex.invisible_cards(deck, category)) for category in CATEGORIES], w)
    out.append(
        Para(
            "<b>Topp 3</b> (Kraftidioten): kortene med nr. 1, 2 eller 3 i en kategori. Sier "
            "du at du legger et av dem i kategorien det spilles om, kan bunken brennes."
        )
    )
    out += gallery([(category, ex.top_cards(deck, category)) for category in CATEGORIES], w)
    jokers = deck.jokers
    burns = ex.burn_cards(deck)
    twos = ex.reset_cards(deck)
    out += [
        Para(
            f"<b>De {len(jokers)} jokerne</b> er like og har verken kraftverk eller tall. I "
            "Kraftidioten og Strømkrig brenner de bunken, og i Strømkrig gjør <b>kløver ess, "
            "2, 3 og 4</b> det samme. I Idiot tas jokerne ut av stokken før spillet."
        ),
        CardRow(
            (*jokers[:1], *burns),
            (f"joker ({len(jokers)} stk.)", *(card_name(c, w) for c in burns)),
        ),
        Para(
            "<b>Toerne</b>: i Strømkrig nuller en toer ut kortet under, slik at neste spiller "
            "kan legge hva som helst. I Idiot kan en toer legges på alt."
        ),
        CardRow(tuple(twos), tuple(card_name(c, w) for c in twos)),
    ]
    groups = ex.war_groups(deck)
    out.append(
        Para(
            "<b>Krigspartnere</b> (Strømkrig): kort med samme produksjon når tallet rundes "
            "<i>ned</i> til nærmeste tier (879\u00a0GWh og 871\u00a0GWh blir begge 870). "
            "Legges det ene på det andre, blir det strømkrig."
            + (
                " I denne stokken gjelder det disse gruppene:"
                if groups
                else " I denne stokken har ingen kort samme tier."
            )
        )
    )
    if groups:
        out.append(Bullets(tuple(war_partner_line(group, w) for group in groups)))
        first = groups[0]
        out.append(CardRow(tuple(first), tuple(caption(c, "gwh", w) for c in first)))
    return out


# --- Idiot (ID-1 .. ID-13) ---------------------------------------------------------------


def _idiot(deck: Deck, w: Words) -> list[Block]:
    return [
        Heading("Idiot"),
        Para(
            "Idiot er et klassisk norsk kortspill. Her teller bare verdien på kortene; "
            "kraftverkenes tall har ingen betydning. Det gjelder å bli kvitt kortene sine så "
            "fort som mulig, og for all del ikke være den siste."
        ),
        Heading("Spillere, kort og mål", 2),
        Bullets(
            (
                "2 til 5 spillere.",
                "Ta ut de tre jokerne; det spilles med 52 kort.",
                "Rekkefølgen fra lavest til høyest er 2, 3, 4, 5, 6, 7, 8, 9, 10, knekt, dame, "
                "konge, ess. Esset er altså høyest (det teller som 14).",
                "Den første som blir kvitt alle kortene sine, vinner. Den siste som sitter "
                "igjen med kort, er Idioten.",
            )
        ),
        Heading("Utdeling", 2),
        Para(
            "Hver spiller får tre kort med baksiden opp i en rad foran seg på bordet. Oppå "
            "hvert av dem legges ett kort med forsiden opp, så alle kan se dem. Til slutt får "
            "hver spiller tre kort på hånden. Resten av kortene er trekkbunken."
        ),
        Para(
            "Før spillet begynner, kan hver spiller bytte kort mellom hånden og de tre "
            "synlige bordkortene, så mange som man vil. Det lønner seg å legge høye kort og "
            "spesialkort synlig på bordet til senere."
        ),
        Heading("Hvem begynner?", 2),
        Para(
            "Den som har det laveste vanlige kortet på hånden, begynner. Treeren er lavest; "
            "toere og tiere teller ikke. Har flere spillere like lave kort, begynner den av "
            "dem som har lavest neste kort. Er det fortsatt likt, begynner den som sitter "
            "nærmest til venstre for giveren."
        ),
        Heading("En tur", 2),
        Para(
            "Legg ett eller flere kort med samme verdi på bunken. Verdien må være minst like "
            "høy som det øverste kortet i bunken; like høy er lov. Er bunken tom, kan du "
            "legge hva du vil. Etterpå fyller du opp til tre kort på hånden fra trekkbunken, "
            "så lenge den varer. Så går turen videre til neste spiller, med klokka."
        ),
        Heading("Spesialkort i Idiot", 2),
        Bullets(
            (
                "<b>2</b> kan legges på hva som helst. Neste spiller kan da legge hvilket kort "
                "som helst.",
                "<b>10</b> kan legges på hva som helst og brenner bunken. Du som la tieren, "
                "legger straks et nytt kort (hva du vil) og starter en ny bunke.",
                "<b>Fire like</b>: ligger fire kort med samme verdi øverst i bunken etter "
                "hverandre, brennes bunken. Det spiller ingen rolle om de kom fra én eller "
                "flere spillere. Den som la det fjerde kortet, starter på nytt.",
            )
        ),
        Heading("Når du ikke kan legge", 2),
        Para(
            "Kan du ikke legge noe, må du velge: enten tar du inn hele bunken, eller du tar "
            "en <b>sjanse</b>. Da snur du det øverste kortet i trekkbunken. Passer det, må det "
            "legges på bunken. Passer det ikke, tar du både det kortet og hele bunken inn på "
            "hånden. Du har også lov til å ta inn bunken selv om du kunne ha lagt noe. Når "
            "bunken er tatt inn, går turen videre, og neste spiller begynner på en tom bunke."
        ),
        *_idiot_example(deck, w),
        Heading("Bordkortene", 2),
        Para(
            "Når trekkbunken er tom og du ikke har flere kort på hånden, spiller du fra "
            "bordet. Først de synlige kortene; har du flere like, kan de legges sammen. Når "
            "de er borte, spiller du de skjulte kortene ett om gangen, uten å se på dem "
            "først: snu ett og legg det på bunken. Passer det ikke, tar du det kortet og "
            "hele bunken inn på hånden, og må spille ut hånden før du kan fortsette med "
            "bordkortene."
        ),
        Heading("Slutten", 2),
        Para(
            "Når du ikke har flere kort på hånden, ingen synlige og ingen skjulte bordkort, "
            "er du ute. Den første som går ut, vinner. De andre fortsetter til bare én har "
            "kort igjen: Idioten. Går noen ut ved å brenne bunken, starter neste spiller den "
            "nye bunken."
        ),
        Heading("Husregler", 2),
        Para(
            "Idiot spilles litt forskjellig fra sted til sted. Bli enige før dere begynner "
            "om dere vil bruke noen av disse variantene:"
        ),
        Bullets(
            (
                "<b>Toeren gir ny tur</b>: den som la toeren, legger selv et nytt kort, "
                "hvilket som helst.",
                "<b>Ikke gå ut på en toer</b>: det siste kortet du spiller, kan ikke være en toer.",
                "<b>Ingen bytting</b>: ingen får bytte kort mellom hånd og bord før start.",
                "<b>Serier</b>: du kan legge en rekke med stigende verdi i samme tur, for "
                "eksempel 3, 4, 5. Toere og tiere kan ikke være med i en rekke.",
                "<b>Snik-treer</b>: en treer kan legges under bunken i stedet for oppå.",
            )
        ),
    ]


def _idiot_example(deck: Deck, w: Words) -> list[Block]:
    example = ex.idiot_queen(deck)
    if example is None:
        return [Example("Eksempel", (Para(MISSING),))]
    allowed = ", ".join(plant(c, w) for c in example.allowed)
    special = " og ".join(plant(c, w) for c in example.special)
    refused = " og ".join(plant(c, w) for c in example.refused)
    return [
        Example(
            "Eksempel: en dame ligger øverst",
            (
                CardRow(
                    (example.top, *example.allowed),
                    ("øverst", "lov: lik", "lov: høyere", "lov: høyest"),
                ),
                Para(
                    f"Øverst i bunken ligger {plant(example.top, w)}. Da kan du legge "
                    f"{allowed}: en dame er like høy, en konge og et ess er høyere. Også "
                    f"{special} kan legges. Tieren brenner bunken, og du legger igjen."
                ),
                Para(
                    f"Du kan ikke legge {refused}: de er lavere enn damen. Har du bare slike "
                    "kort, må du ta inn bunken eller ta en sjanse."
                ),
                Para(
                    "Kraftverkene på kortene betyr ingenting her: en dame er en dame, "
                    "uansett hvor mye strøm den lager."
                ),
            ),
        )
    ]


# --- Kraftidioten (KI-1 .. KI-9) ---------------------------------------------------------


def _kraftidioten(deck: Deck, w: Words) -> list[Block]:
    cards = ex.by_production(deck)
    sample = cards[len(cards) // 5]
    return [
        Heading("Kraftidioten"),
        Para(
            "Et bløffespill for dem som kan (eller later som de kan) sine kraftverk. Du "
            "legger kortene med baksiden opp og sier hvilket kraftverk det er: du «søker "
            "konsesjon». Det du sier, trenger ikke være sant, men blir du avslørt, straffes "
            "det."
        ),
        Heading("Spillere, kort og mål", 2),
        Bullets(
            (
                "2 til 10 spillere. Alle 55 kort er med.",
                "Du skal bli kvitt hele hånden ved å søke konsesjon for kortene, ett og ett. "
                "Den første som står uten kort, vinner. Den som blir sittende igjen med kort "
                "til slutt, er kraftidioten.",
                "Spillet handler om de tre kategoriene effekt (MW), produksjon (GWh) og "
                "fallhøyde (m).",
            )
        ),
        Heading("Utdeling", 2),
        Para(
            "Legg de tre jokerne til side og stokk de 52 kraftverkkortene. Del ut tre kort "
            "til hver spiller. Bland så jokerne inn i resten, og legg kortene med baksiden "
            "opp som trekkbunke."
        ),
        Heading("En tur: søke konsesjon", 2),
        Para(
            "Spilleren til venstre for giveren begynner, og turen går med klokka. "
            "Den som starter en ny bunke, velger først kategori. Så legger spilleren ett kort "
            "med baksiden opp midt på bordet og sier navnet på kraftverket og tallet i "
            f"kategorien, med enhet, for eksempel «{escape(sample.name or '')}, "
            f"{figure(sample, 'gwh', w)}». Til slutt trekker spilleren fra trekkbunken, "
            "slik at det er minst tre kort på hånden."
        ),
        Para(
            "Neste spiller må søke konsesjon for et kraftverk med minst like høyt tall i "
            "samme kategori, legge kortet med baksiden opp på bunken, si navn og tall med "
            "enhet, og fylle opp. Slik går det rundt bordet. Ta med enheten hver gang (MW, GWh "
            "eller m), så ingen er i tvil om hvilken kategori som gjelder."
        ),
        Heading("Når du ikke kan (eller vil)", 2),
        Para("Har du ikke et kort som er høyt nok, har du tre muligheter:"),
        Bullets(
            (
                "<b>Ta inn bunken.</b> Det har du lov til når som helst i din tur, også som "
                "taktikk.",
                "<b>Trekk en sjanse.</b> Ta det øverste kortet i trekkbunken og søk ærlig "
                "konsesjon for det, med riktig navn og tall. Er tallet lavere enn forrige "
                "søknad, tar du inn bunken med det kortet. Trekker du en joker, legges den "
                "som joker (se under).",
                "<b>Lyv.</b> Legg hvilket som helst kort med baksiden opp og si navnet på et "
                "kraftverk i stokken og et tall som er høyt nok. Feil navn og feil tall er "
                "begge løgn. Her har den som kan kraftverkene sine, en stor fordel.",
            )
        ),
        Para(
            "Når noen har tatt inn bunken, starter neste spiller en ny bunke og velger "
            "kategori på nytt."
        ),
        Heading("Anke", 2),
        Para(
            "Tror du at noen lyver, kan du <b>anke</b> den siste søknaden før neste kort er "
            "lagt. Kortet snus. Det er løgn hvis kortet ikke er kraftverket som ble nevnt, "
            "eller hvis tallet ikke er kraftverkets tall."
        ),
        Bullets(
            (
                "<b>Løgn</b>: den som la kortet, tar inn bunken. Du som anket, starter den "
                "nye bunken.",
                "<b>Sant</b>: du som anket, tar inn bunken. Spilleren etter den som la "
                "kortet, starter den nye bunken.",
                "Vil flere anke samtidig, er det den første i rekkefølgen etter den som la "
                "kortet, som får gjøre det.",
            )
        ),
        *_claims_example(deck, w),
        Heading("Jokeren", 2),
        Para(
            "En joker vises for alle når den legges, og bunken brennes. Den som la jokeren, "
            "legger straks et nytt kort og velger kategori. Men du får ikke legge en joker "
            "når du har to kort eller færre på hånden. Gjør du det likevel, brennes bunken "
            "like fullt, men du må trekke tre tilfeldige kort fra de brente kortene som straff "
            "(færre hvis det ikke er så mange)."
        ),
        Heading("Topp 3 brenner bunken", 2),
        Para(
            "Sier du at kortet ditt har nr. 1, 2 eller 3 i kategorien det spilles om, brennes "
            "bunken hvis ingen anker. Du trenger ikke vise kortet, men vent litt (tell til tre) "
            "så de andre får tid til å anke."
        ),
        Bullets(
            (
                "Ingen anker: bunken brennes, og du legger et nytt kort og velger kategori.",
                "Noen anker, og det var sant: den som anket, tar inn bunken som skulle "
                "brennes. Du legger et nytt kort og velger kategori.",
                "Noen anker, og det var løgn: du tar inn bunken, og den som anket, starter "
                "den nye.",
            )
        ),
        *_top_example(deck, w),
        Heading("Slutten", 2),
        Para(
            "Når trekkbunken er tom og du ikke har flere kort på hånden, er du ute, så sant "
            "ingen anker det siste kortet ditt med hell. Blir det avslørt som løgn, får du "
            "bunken tilbake og er med igjen. Den første som går ut, vinner. Spillet fortsetter "
            "til bare én har kort igjen: kraftidioten."
        ),
    ]


def _claims_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    claims = ex.kraftidioten_claims(deck)
    if claims is None:
        out.append(Example("Eksempel: en anke", (Para(MISSING),)))
    else:
        cat = claims.category
        name = CATEGORY_NAMES[cat]
        out.append(
            Example(
                "Eksempel: en løgn blir avslørt",
                (
                    Para(
                        f"Kari, Ola og Per spiller. Kari starter og velger {name}. Hun legger "
                        f"{plant(claims.first, w)} med baksiden opp og sier «"
                        f"{escape(claims.first.name or '')}, {figure(claims.first, cat, w)}». "
                        f"Det er sant. Ola legger {plant(claims.second, w)} og sier «"
                        f"{escape(claims.second.name or '')}, {figure(claims.second, cat, w)}», "
                        "som også er sant og høyere."
                    ),
                    Para(
                        f"Per har ikke noe høyt nok. Han legger {plant(claims.hidden, w)} med "
                        f"baksiden opp, men sier «{escape(claims.claimed.name or '')}, "
                        f"{figure(claims.claimed, cat, w)}». Ola anker. Kortet snus: det er "
                        f"{escape(claims.hidden.name or '')} med "
                        f"{figure(claims.hidden, cat, w)}, ikke "
                        f"{escape(claims.claimed.name or '')}."
                    ),
                    CardRow(
                        (claims.first, claims.second, claims.hidden),
                        ("Kari", "Ola", "Per (snudd)"),
                    ),
                    Para(
                        "Anken får medhold: Per tar inn alle tre kortene, og Ola, som anket, "
                        "starter en ny bunke og velger kategori. Hadde kortet vært det Per sa, "
                        "måtte Ola ha tatt inn bunken, og Kari, som sitter etter Per, hadde "
                        "startet den nye."
                    ),
                ),
            )
        )
    return out


def _top_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    top = ex.kraftidioten_top(deck)
    if top is not None:
        cat = top.category
        nr = top.top.nr.get(cat) if top.top.nr else 0
        out.append(
            Example(
                "Eksempel: topp 3",
                (
                    Para(
                        f"Det spilles om {CATEGORY_NAMES[cat]}, og øverst ligger en søknad på "
                        f"{plant_with(top.under, cat, w)}. Ola legger "
                        f"{plant(top.top, w)} og sier «{escape(top.top.name or '')}, "
                        f"{figure(top.top, cat, w)}, nr.\u00a0{nr}». Han venter litt."
                    ),
                    CardRow((top.under, top.top), ("under", f"nr.\u00a0{nr}")),
                    Para(
                        "Ingen anker, så bunken brennes, og Ola legger et nytt kort og velger "
                        "kategori. Hadde Per anket, ville kortet blitt snudd og vist seg å "
                        "være sant: da måtte Per ha tatt inn bunken, og Ola hadde lagt på nytt."
                    ),
                ),
            )
        )
    return out


# --- Strømkrig (SK-1 .. SK-14) -----------------------------------------------------------


def _stromkrig(deck: Deck, w: Words) -> list[Block]:
    return [
        Heading("Strømkrig"),
        Para(
            "Et raskt spill for store og små, der produksjonen avgjør: hvert kort må "
            "produsere mer strøm enn det forrige. Like tall og kløver mot kløver gir krig."
        ),
        Heading("Spillere, kort og mål", 2),
        Bullets(
            (
                "2 til 6 spillere. Alle 55 kort er med, også jokerne.",
                "Først tom for kort vinner. Den som sitter igjen med kort til slutt, har "
                "tapt strømkrigen og er giver i neste runde.",
            )
        ),
        Heading("Utdeling", 2),
        Para(
            "Stokk alle kortene og del ut tre til hver. Resten er trekkbunken. Det hjelper å "
            "sortere kortene på hånden etter produksjon (GWh). Giveren begynner."
        ),
        Heading("En tur", 2),
        Para(
            "Legg et kort som har <b>høyere</b> produksjon enn det øverste kortet i bunken; "
            "likt er ikke nok. Er bunken tom, kan du legge hva du vil. Fyll så opp til tre "
            "kort fra trekkbunken, så lenge det er kort der. Det går fortere hvis du sier "
            "produksjonen høyt når du legger."
        ),
        *_beat_example(deck, w),
        Bullets(
            (
                "<b>Sjanse</b>: i stedet for å legge fra hånden kan du snu det øverste kortet "
                "i trekkbunken rett på bunken. Er det ikke høyt nok, tar du inn bunken med "
                "det kortet.",
                "<b>Ta inn</b>: kan eller vil du ikke legge, tar du inn hele bunken. Neste "
                "spiller starter en ny.",
                "<b>Rekker</b>: to eller flere kort med nr. i produksjon som følger etter "
                "hverandre (for eksempel nr. 15 og nr. 14) kan legges i samme tur. Legg det "
                "med lavest produksjon først; det må slå det øverste kortet. Det høyeste "
                "kortet i rekken blir det nye øverste.",
            )
        ),
        *_run_example(deck, w),
        Heading("Strømkrig!", 2),
        Para("Det blir krig når ett av disse skjer:"),
        Bullets(
            (
                "Noen legger en <b>kløver på en kløver</b>. Kortet må fortsatt ha høyere "
                "produksjon. Kløver ess, 2, 3 og 4 starter ikke krig (de brenner bunken).",
                "Noen legger et kort med <b>samme produksjon rundet ned til nærmeste tier</b> "
                "som kortet under (879 og 871\u00a0GWh er begge 870). Her kan kortet som legges, "
                "godt være lavere enn det under.",
            )
        ),
        Para(
            "Den som la kortet, utfordrer til krig. Den som la kortet under, er også med. "
            "Alle andre kan bli med ved å rope «krig!» før kategorien er valgt. Så velger "
            "utfordreren kategori (produksjon, effekt eller fallhøyde) og legger det første "
            "krigskortet. De andre som er med, legger ett kort hver i vanlig rekkefølge og "
            "fyller opp fra trekkbunken så lenge den varer."
        ),
        Para(
            "Den som la det <b>laveste</b> tallet i den valgte kategorien, taper krigen og "
            "tar inn hele bunken med krigskortene. Har flere det samme laveste tallet, går "
            "krigen om igjen mellom dem. En joker teller som lavest i krig, og spesialkort "
            "har ingen spesialkraft i krig. Har du ikke noe kort å legge i krigen, tar du inn hele "
            "bunken. Taperen starter den nye bunken."
        ),
        *_war_examples(deck, w),
        Heading("Spesialkort i Strømkrig", 2),
        Bullets(
            (
                "<b>Joker og kløver ess, 2, 3 og 4</b>: kan legges uansett hva som ligger "
                "øverst, og bunken brennes. Du fyller opp og starter en ny bunke selv.",
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
            )
        ),
        *_special_examples(deck, w),
        Heading("Slutten", 2),
        Para(
            "Er trekkbunken tom og hånden din også, er du ute. Først ute vinner; den siste "
            "med kort igjen har tapt og gir i neste runde."
        ),
    ]


def _beat_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    beat = ex.stromkrig_beat(deck)
    if beat is not None:
        out.append(
            Example(
                "Eksempel: hvilket kort slår hvilket?",
                (
                    CardRow(
                        (beat.top, beat.higher, beat.lower),
                        ("øverst", "kan legges", "kan ikke"),
                    ),
                    Para(
                        f"Øverst ligger {plant_with(beat.top, 'gwh', w)}. Du kan legge "
                        f"{plant_with(beat.higher, 'gwh', w)}, som produserer mer. Du kan "
                        f"ikke legge {plant_with(beat.lower, 'gwh', w)}, som produserer mindre."
                    ),
                ),
            )
        )
    return out


def _run_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    run = ex.stromkrig_run(deck)
    if run is not None:
        out.append(
            Example(
                "Eksempel: en rekke",
                (
                    Para(
                        f"Øverst ligger {plant_with(run.top, 'gwh', w)}. Du har "
                        f"{plant(run.first, w)} med nr.\u00a0{_nr(run.first)} og "
                        f"{plant(run.second, w)} med nr.\u00a0{_nr(run.second)} i produksjon. "
                        f"Numrene følger etter hverandre, så du legger begge: først "
                        f"{escape(run.first.name or '')} ({figure(run.first, 'gwh', w)}), "
                        f"som slår det øverste, så {escape(run.second.name or '')} "
                        f"({figure(run.second, 'gwh', w)}). Neste spiller må slå "
                        f"{figure(run.second, 'gwh', w)}."
                    ),
                ),
            )
        )
    return out


def _war_examples(deck: Deck, w: Words) -> list[Block]:
    return [
        _war_example(ex.stromkrig_tens_war(deck), "samme tier", w),
        _war_example(ex.stromkrig_club_war(deck), "kløver på kløver", w),
    ]


def _special_examples(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    reset = ex.stromkrig_reset(deck)
    if reset is not None:
        out.append(
            Example(
                "Eksempel: toeren",
                (
                    Para(
                        f"Øverst ligger {plant_with(reset.top, 'gwh', w)}, et av de største "
                        f"kraftverkene. Ola legger {plant(reset.special, w)}. Nå teller "
                        f"{escape(reset.top.name or '')} som null, og Per kan legge "
                        f"{plant_with(reset.follow, 'gwh', w)}, selv om det er lite."
                    ),
                ),
            )
        )
    invisible = ex.stromkrig_invisible(deck)
    if invisible is not None:
        card = invisible.special
        reasons = [
            f"nr.\u00a0{card.nr.get(c)} i {CATEGORY_NAMES[c]}"
            for c in CATEGORIES
            if card.nr and card.flags.invisible.get(c)
        ]
        out.append(
            Example(
                "Eksempel: et usynlig kort",
                (
                    Para(
                        f"Øverst ligger {plant_with(invisible.top, 'gwh', w)}. Kari har ikke "
                        f"noe høyere, men hun har {plant(card, w)}, som har "
                        f"{' og '.join(reasons)}. Det er usynlig: hun legger det ved siden "
                        f"av bunken og blir kvitt det. Neste spiller må fortsatt slå "
                        f"{escape(invisible.top.name or '')}, for eksempel med "
                        f"{plant_with(invisible.follow, 'gwh', w)}."
                    ),
                ),
            )
        )
    return out


def _nr(card: Card) -> int:
    return card.nr.gwh if card.nr else 0


def _war_example(war: ex.WarExample | None, kind: str, w: Words) -> Example:
    title = f"Eksempel: krig ({kind})"
    if war is None:
        return Example(title, (Para(MISSING),))
    cat = war.category
    if kind == "samme tier":
        lower = war.laid.figure("gwh") < war.under.figure("gwh")
        start = (
            f"Kari, Ola og Per spiller. Kari har lagt {plant_with(war.under, 'gwh', w)}. "
            f"Ola legger {plant_with(war.laid, 'gwh', w)}. Begge rundes ned til "
            f"{number(ex.tens(war.laid), w)}\u00a0GWh, så det blir krig, selv om Olas kort "
            + ("er lavere." if lower else "ikke er høyere.")
        )
    else:
        start = (
            f"Kari, Ola og Per spiller. Kari har lagt {plant_with(war.under, 'gwh', w)}. "
            f"Ola legger {plant_with(war.laid, 'gwh', w)} oppå. Det er høyere, og det er kløver på "
            "kløver: krig!"
        )
    loser, winner = ("Ola", "Kari") if war.loser_is_challenger else ("Kari", "Ola")
    return Example(
        title,
        (
            Para(start),
            CardRow(
                (war.under, war.laid, war.challenger_card, war.defender_card),
                ("Kari", "Ola", "Ola i krig", "Kari i krig"),
            ),
            Para(
                f"Per vil ikke være med. Ola utfordret, så han velger {CATEGORY_NAMES[cat]} "
                f"og legger {plant_with(war.challenger_card, cat, w)}. Kari svarer med "
                f"{plant_with(war.defender_card, cat, w)}."
            ),
            Para(
                f"{loser} har lavest {CATEGORY_NAMES[cat]}, taper krigen og tar inn hele "
                f"bunken, alle fire kortene. {loser} starter så en ny bunke. {winner} er "
                "kvitt to kort."
            ),
        ),
    )


# --- Tillegg -----------------------------------------------------------------------------


def _appendix(deck: Deck, w: Words) -> list[Block]:
    snap = deck.snapshot
    source = escape(snap.source or "ikke oppgitt")
    facts = [
        f"Kilde: {escape(snap.attribution.rstrip('. '))}." if snap.attribution else "",
        f"Lisens: {escape(snap.licence or 'ikke oppgitt')}.",
        f"Datauttrekk: {escape(snap.date or 'ukjent dato')}, lest fra {source} "
        f"({escape(snap.path)}).",
    ]
    facts = [fact for fact in facts if fact]
    return [
        Heading("Alle kortene"),
        Para(
            "Alle 55 kort, sortert etter produksjon fra høyest til lavest. Tallene i "
            "kolonnene nr. er plassen i hver kategori (1 = høyest)."
        ),
        CardTable(
            headings=("Kort", "Kraftverk", "MW", "nr.", "GWh", "nr.", "m", "nr."),
            joker_label="joker",
        ),
        Heading("Om tallene", 2),
        Para(
            "Tallene på kortene er hentet fra offentlige data om norske vannkraftverk. De "
            "gjelder dette uttrekket; nyere tall kan avvike. Produksjon er forventet "
            "produksjon i et normalår."
        ),
        Bullets(tuple(facts)),
    ]


__all__ = ["blocks"]
