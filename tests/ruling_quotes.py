"""The sentence each variant's ruling rests on, per deciding rule (a fragment of the cited quote).

Picked by hand from the source texts; ``None`` marks a point the document is
silent on, where the ruling must name the unstated parameter instead.
"""

S, N, D, G = "sv-classic", "no-pagat", "da-ludo", "sv-gamerules"

QUOTES = {
    ("turn.draw_first", S): "Antingen drar du det översta kortet från stocken",
    ("turn.draw_first", N): "Trekk ett kort fra trekkbunken, eller ta hele kastebunken",
    ("turn.draw_first", D): "trækker du normalt 1 kort fra trækkebunken",
    ("turn.draw_first", G): "En spelare börjar med att dra ett kort",
    ("draw.count", S): "det översta kortet från stocken",
    ("draw.count", N): "Trekk ett kort fra trekkbunken",
    ("draw.count", D): "trækker du normalt 1 kort",
    ("draw.count", G): "dra ett kort från förrådet",
    ("stock.empty", S): "Omgången tar också slut om stocken tar slut",
    ("stock.empty", N): "Ellers avsluttes omgangen når noen velger å trekke og ingen kort finnes.",
    ("stock.empty", D): "En omgang slutter, når en spiller kommer af med sit sidste kort",
    ("stock.empty", G): None,
    ("stock.empty.forced_take", N): "En spiller må ta den dersom den ikke er frossen",
    ("stock.empty.forced_take", S): "utan att kunna fortsätta",
    ("first_round.no_pile", S): "En tur består av tre steg",
    ("first_round.no_pile", N): "Spilleren til venstre for giver begynner.",
    ("first_round.no_pile", D): "Indtil startspilleren får tur igen, må ingen åbne, og bunken må ikke tages.",
    ("first_round.no_pile", G): "Efter den första spelrundan",
    ("first_round.no_opening", S): "En tur består av tre steg",
    ("first_round.no_opening", N): "Spilleren til venstre for giver begynner.",
    ("first_round.no_opening", D): "Indtil startspilleren får tur igen, må ingen åbne",
    ("first_round.no_opening", G): "Efter den första spelrundan",
    ("pile.empty", S): "eller så tar du upp hela slängstapeln",
    ("pile.empty", N): "eller ta hele kastebunken",
    ("pile.empty", D): "medmindre du tager bunken i stedet",
    ("pile.empty", G): "plocka upp ett från kasthögen",
    ("pile.top.wild", S): "inte ett vildkort eller en svart trea",
    ("pile.top.wild", N): "Du kan aldri ta bunken når øverste kort er en toer, joker eller svart treer.",
    ("pile.top.wild", D): "to rene kort af samme rang som øverste kort",
    ("pile.top.wild", G): "Högen har toppats med ett naturligt kort",
    ("pile.top.wild", D, "undetermined"): "2'ere: 20 point",
    ("pile.top.black_three", S): "hindrar den nästa spelare från att ta upp slängstapeln",
    ("pile.top.black_three", N): "Svarte treere kan kastes for å sperre bunken for neste spiller.",
    ("pile.top.black_three", D): "En sort 3'er kan spærre bunken for næste spiller.",
    ("pile.top.black_three", G): "svart trea eller joker placeras ovanpå avkastningshögen, fryses högen effektivt",
    ("pile.one_card_rule", G): "när han bara har ett kort på handen och kasthögen bara har ett kort i den",
    ("pile.frozen.natural_pair", S): "En fryst slängstapel får du bara ta upp om du har två vanliga kort",
    ("pile.frozen.natural_pair", S, "illegal"): "det räcker alltså inte med ett vanligt kort plus ett vildkort",
    ("pile.frozen.natural_pair", N): "Da trenger du alltid to naturlige kort på hånden med samme valør som toppkortet.",
    ("pile.frozen.natural_pair", N, "illegal"): "én nier og en joker gjør ikke det.",
    ("pile.frozen.natural_pair", D): "kan den kun tages, hvis du har to rene kort af samme rang som øverste kort",
    ("pile.frozen.natural_pair", D, "illegal"): "En joker tæller ikke som et rent kort til dette krav.",
    ("pile.frozen.natural_pair", G): "Spelaren har redan ett NATURLIGT par på handen",
    ("pile.frozen.add_to_meld", S): "En fryst slängstapel får du bara ta upp om du har två vanliga kort",
    ("pile.frozen.add_to_meld", N): "Da trenger du alltid to naturlige kort",
    ("pile.frozen.add_to_meld", D): "må du ikke tage bunken alene for at lægge øverste kort til en eksisterende melding",
    ("pile.frozen.add_to_meld", G): "En spelare får endast ta avkastningshögen när",
    ("pile.unfrozen.natural_and_wild", S): "genom att bilda en ny sättning med hjälp av två kort från din hand",
    ("pile.unfrozen.natural_and_wild", N): "eller med ett matchende naturlig kort og ett jokerskort",
    ("pile.unfrozen.natural_and_wild", D): "som del af en ny melding fra hånden",
    ("pile.unfrozen.natural_and_wild", G): "Han har ett naturligt kort och ett jokerkort på sin hand",
    ("pile.unfrozen.add_to_meld", S): "genom att lägga till det i en sättning laget redan har",
    ("pile.unfrozen.add_to_meld", N): "legger toppkortet til en eksisterende melding av samme valør på laget.",
    ("pile.unfrozen.add_to_meld", D): "som tillæg til en samling, dit hold allerede har på bordet",
    ("pile.unfrozen.add_to_meld", G): "Han kan lägga till det översta kortet till en meld som han redan har på bordet",
    ("pile.cards_same_turn", S): "Därefter får du använda korten i stapeln till fler sättningar.",
    ("pile.cards_same_turn", N): "Deretter kan du melde flere kort",
    ("pile.cards_same_turn", D): "I den tur, hvor du tager bunken, må du kun bruge det øverste kort.",
    ("pile.cards_same_turn", G): "ta de återstående korten från högen till sin hand för att bilda andra melds",
    ("meld.same_rank", S): "minst tre kort av samma valör",
    ("meld.same_rank", N): "minst tre kort med samme valør",
    ("meld.same_rank", D): "mindst 3 ens (samme rang)",
    ("meld.same_rank", G): "tre eller fler kort med samma rang",
    ("meld.min_cards", S): "En sättning (meld) är minst tre kort av samma valör",
    ("meld.min_cards", N): "En melding er minst tre kort med samme valør",
    ("meld.min_cards", D): "En åbning laves ved at lægge mindst 3 kort på bordet",
    ("meld.min_cards", G): "En meld är en kombination av tre eller fler kort med samma rang.",
    ("meld.min_naturals", S): "minst två vanliga kort",
    ("meld.min_naturals", N): "minst to naturlige kort",
    ("meld.min_naturals", D): "flertal af rene kort",
    ("meld.min_naturals", G): "två \"naturliga\" kort för varje joker",
    ("meld.max_wilds", S): "högst tre vildkort",
    ("meld.max_wilds", N): "høyst tre jokerskort",
    ("meld.max_wilds", G): "inte ha mer än tre jokrar totalt",
    ("meld.natural_majority", D): "der skal altid være flertal af rene kort",
    ("meld.naturals_per_wild", G): "två \"naturliga\" kort för varje joker",
    ("meld.wild_only", S): "en sättning får aldrig bestå av enbart vildkort",
    ("meld.wild_only", N): "Meldinger med bare jokerskort er ikke tillatt.",
    ("meld.wild_only", D): "flertal af rene kort",
    ("meld.wild_only", G): "två \"naturliga\" kort för varje joker",
    ("meld.one_per_rank", S): "Ditt lag kan bara ha en sättning per valör",
    ("meld.one_per_rank", N): "Laget kan bare ha én melding av hver valør.",
    ("meld.one_per_rank", D): "som tillæg til en samling, dit hold allerede har på bordet",
    ("meld.one_per_rank", G): "Motståndarlaget kan skapa melds av samma rang",
    ("meld.add.target", S): "nya kort av samma valör läggs till den befintliga sättningen",
    ("meld.add.target", N): "Laget kan bare ha én melding av hver valør.",
    ("meld.add.target", D): "som tillæg til en samling, dit hold allerede har på bordet",
    ("meld.add.target", G): "spelare kan lägga till på befintliga melds",
    ("red_three.never_melded", S): "Du lägger inte upp dem i en sättning",
    ("red_three.never_melded", N): "De er bonuskort, ikke meldinger.",
    ("red_three.never_melded", D): "lægger hver spiller eventuelle røde 3'ere ned",
    ("red_three.never_melded", G): "måste han lägga den med bildsidan uppåt på bordet",
    ("black_three.going_out_only", S): "Svarta treor får bara läggas ut som en egen sättning",
    ("black_three.going_out_only", N): "Bare ved utgang kan du melde tre eller fire svarte treere",
    ("black_three.going_out_only", D): "Sorte 3'ere kan ellers ikke lægges ned under spillet.",
    ("black_three.going_out_only", G): "En uppsättning svarta treor får endast meldas när en spelare är på väg att gå ut.",
    ("black_three.meld", S): "(tre eller fyra stycken, utan vildkort)",
    ("black_three.meld", N): "tre eller fire svarte treere sammen, uten jokerskort",
    ("black_three.meld", D): "Hvis du afslutter med 3 eller 4 sorte 3'ere på hånden",
    ("black_three.meld", G): "En uppsättning svarta treor får endast meldas",
    ("opening.minimum", N): "må kortverdiene samlet nå kravet nedenfor",
    ("opening.canasta_required", D): "6000-10.000: åbning kræver canasta",
    ("go_out.canasta_required", S): "Ditt lag måste ha minst en avslutad canasta för att få gå ut.",
    ("go_out.canasta_required", N): "Du kan gå ut når laget har minst én canasta, gjerne fullført samme tur.",
    ("go_out.canasta_required", D): "En omgang slutter, når en spiller kommer af med sit sidste kort",
    ("go_out.canasta_required", G): "En spelare kan inte gå ut förrän laget har gjort minst en canasta.",
    ("go_out.keep_card", S): "Ditt lag måste ha minst en avslutad canasta för att få gå ut.",
    ("go_out.keep_card", N): "laget har minst én canasta",
    ("go_out.keep_card", D): "En omgang slutter, når en spiller kommer af med sit sidste kort",
    ("go_out.keep_card", G): "förrän laget har gjort minst en canasta",
    ("go_out.all_cards", S): "antingen genom att lägga ut allt eller genom att lägga ut allt utom ett kort",
    ("go_out.all_cards", N): "Meld hele hånden, eller meld alle kort unntatt ett og kast det siste.",
    ("go_out.all_cards", D): "ved at kaste af i bunken",
    ("go_out.all_cards", G): "kasta sitt sista kort eller lägga det till en befintlig meld",
    # rows whose ruling rests on a different sentence than the rule's usual one
    ("open below zero with three aces", S): "| Minuspoäng | 15 |",
    ("open below zero with three aces", G): "Minuspoäng = Meld måste vara lika med 15 poäng",
    ("concealed go-out at 1000", N): "gå skjult ut uten å oppfylle åpningskravet",
    ("concealed go-out at 3000 with a bare canasta", N): "gå skjult ut uten å oppfylle åpningskravet",
    ("draw without the stock count", G): None,
}
QUOTES[("take unfrozen with a nine and a two", "da-ludo")] = "2'ere: 20 point"
QUOTES.update({
    ("add a lone two without naming the meld", "sv-classic"): "Jokrar och alla tvåor är vildkort.",
    ("add a lone two without naming the meld", "no-pagat"): "Toere og jokere er jokerskort",
    ("add a lone two without naming the meld", "da-ludo"): "2'ere: 20 point",
    ("add a lone two to one of two melds without naming it", "sv-classic"): "Jokrar och alla tvåor är vildkort.",
    ("add a lone two to one of two melds without naming it", "no-pagat"): "Toere og jokere er jokerskort",
    ("add a lone two to one of two melds without naming it", "da-ludo"): "2'ere: 20 point",
    ("add a lone two to one of two melds without naming it", "sv-gamerules"): "(jokrar, tvåor)",
    ("add a lone two without naming the meld", "sv-gamerules"): "(jokrar, tvåor)",
})
QUOTES[("concealed go-out at 3000, has_melded not given", "no-pagat")] = "gå skjult ut uten å oppfylle åpningskravet"

# The opening minimum rests on the band of the team's score: the sentence that gives that band's figure.
OPENING_BANDS = {
    S: [(0, "| 0–1 495 | 50 |"), (1500, "| 1 500–2 995 | 90 |"), (3000, "| 3 000 eller mer | 120 |")],
    D: [(0, "0-1495: 50 point"), (1500, "1500-2995: 90 point"), (3000, "3000-5995: 120 point"),
        (6000, "6000-10.000: åbning kræver canasta")],
    G: [(0, "0 till 1 495 poäng = Meld måste vara lika med 50 poäng"),
        (1500, "1.500 till 2.995 poäng = Meld måste motsvara 90 poäng"),
        (3000, "3 000 eller mer = Meld måste motsvara 120 poäng")],
}


def opening_band(variant: str, score: int) -> str | None:
    bands = OPENING_BANDS.get(variant)
    return [quote for low, quote in bands if low <= score][-1] if bands and score is not None and score >= 0 else None


# Rows whose deciding sentence is particular to them.
QUOTES.update({
    # an opening that counts a canasta's bonus fails on the sentence saying bonuses do not count
    ("a bare canasta of kings at 6500", S): "bonusar för canastor, röda treor och att gå ut räknas inte med",
    ("a bare canasta of kings at 6500", N): "Bonuspoeng teller ikke.",
    ("a bare canasta of kings at 6500", G): "Bonusar för röda treor och canastas räknas inte med i minimikravet.",
    ("concealed go-out at 3000 with a bare canasta", S): "bonusar för canastor, röda treor och att gå ut",
    # a concealed go-out by a player whose partner has not met the first requirement: he must meet it himself
    ("concealed go-out at 3000 with a bare canasta", G): "måste han/hon själv uppfylla det första kravet.",
    ("concealed go-out at 3000, has_melded not given", S): "bonusar för canastor, röda treor och att gå ut",
    ("concealed go-out at 3000, has_melded not given", G): "måste han/hon själv uppfylla det första kravet.",
    ("concealed go-out at 3000 with a bare canasta", D): None,  # whether bonuses count: the sheet is silent
    ("concealed go-out at 3000, has_melded not given", D): None,
    # a two-player table rests on the two-player sentences
    ("two players: one canasta is not enough", S): "och du behöver två canastor för att gå ut",
    ("two players draw two", S): "du drar två kort från stocken varje tur",
})
QUOTES.update({
    ("a two in the pile freezes it (in da-ludo only if twos are wild)", D): "2'ere: 20 point",  # silent on twos
    ("a two as the wild card", D): "2'ere: 20 point",
    ("unopened team, nine + joker", G): "Lagen får inte plocka upp från kasthögen förrän de har skapat sin första meld.",
    ("unopened team, pair plus aces laid with it", G):
        "Lagen får inte plocka upp från kasthögen förrän de har skapat sin första meld.",
    ("take the pile in the first round, nobody has opened", G):
        "Lagen får inte plocka upp från kasthögen förrän de har skapat sin första meld.",
})
QUOTES.update({
    # the open point decides: its sentences come first
    ("unopened team: pile cards toward the opening", S): "Du måste visa sättningen innan du plockar upp resten",
    # the pile's cards below its top card do not count toward the opening: that sentence decides
    ("unopened team: pile cards toward the opening", N): "Ved opptak av kastebunken kan toppkortet telle",
    ("unopened team: pile cards toward the opening", G): "men inget annat, räknas med i kravet",
    ("unopened team: pile cards toward the opening", D): "I den tur, hvor du tager bunken, må du kun bruge det øverste",
    ("open with pile cards after taking the pile", S): "Du måste visa sättningen innan du plockar upp resten",
    ("open with pile cards after taking the pile", N): "Ved opptak av kastebunken kan toppkortet telle",
    ("open with pile cards after taking the pile", D): "I den tur, hvor du tager bunken, må du kun bruge det øverste",
    ("open with pile cards after taking the pile", G): "men inget annat, räknas med i kravet",
    ("meld after taking the pile, the team still without a meld", G): "men inget annat, räknas med i kravet",
    # the rank lies with the opponents: the words on adding to the opponents' melds decide
    ("add to the opponents' meld", S): "bygga vidare på lagets befintliga sättningar",
    ("add to the opponents' meld", N): "Begge makkere kan bygge videre på lagets meldinger, aldri motstandernes.",
    ("add to the opponents' meld", D): "lægge til i dine holdmeldinger på bordet",
    ("add to the opponents' meld", G): "Spelare kan inte lägga till på sina motståndares melds.",
    ("top card onto the opponents' meld", S): "bygga vidare på lagets befintliga sättningar",
    ("top card onto the opponents' meld", N): "Begge makkere kan bygge videre på lagets meldinger, aldri motstandernes.",
    ("top card onto the opponents' meld", D): "lægge til i dine holdmeldinger på bordet",
    ("top card onto the opponents' meld", G): "Spelare kan inte lägga till på sina motståndares melds.",
    ("go out after the partner said no", S): "Svaret är bindande.",
    ("go out after the partner said no", N): "Svaret er bindende.",
    ("go out after the partner said no", D): "Det er tilladt at spørge sin makker, om man må lukke.",
    ("go out after the partner said no", G): None,
    ("discard after the partner said yes", S): "Svaret är bindande.",
    ("discard after the partner said yes", N): "Svaret er bindende.",
    ("discard after the partner said yes", D): "Det er tilladt at spørge sin makker, om man må lukke.",
    ("discard after the partner said yes", G): None,
    # the team's score is missing: the band table as a whole, from its first line
    ("opening without the team's score", S): "| 0–1 495 | 50 |",
    ("opening without the team's score", D): "0-1495: 50 point",
    ("opening without the team's score", G): "0 till 1 495 poäng = Meld måste vara lika med 50 poäng",
})
QUOTES[("open below zero with three aces", D)] = "0-1495: 50 point"  # below zero: the lowest band, one reading
# da-ludo names only the joker as freezing the pile; a wild two freezes it in the other reading (#43 item 2)
QUOTES[("a two in the pile freezes it (in da-ludo only if twos are wild)", "da-ludo")] = \
    "En joker kan spærre bunken for alle spillere."
# Issue 43's rows (tests/ruling_table.py)
QUOTES.update({
    ("a wild two in the pile, twos wild by house rule", D): "En joker kan spærre bunken for alle spillere.",
    ("a meld of red threes lies on the table", D): "I første runde lægger hver spiller eventuelle røde 3'ere ned.",
    ("go out after a no asked after melding", S): "Svaret är bindande.",
    ("go out after a no asked after melding", D): "Det er tilladt at spørge sin makker, om man må lukke.",
    ("go out after a no asked after melding", G): None,
    ("take with a natural and a wild onto a meld holding three wild cards", G):
        "Motståndarlaget kan skapa melds av samma rang",
})
