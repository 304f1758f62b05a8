"""One term per concept in every language: each glossary (``docs/i18n/<lang>.md``, its table
"One term per concept") names, for a concept, the term that language uses and the words it
rejected; every translated line (all six domains, every plural form) of a message whose English
names the concept must use the term and none of the rejected words. A failure prints
``file: msgid`` so a translator finds the line at once.

The English side is here, not in the glossaries, because it is the same for every language: a
pattern on the message id, read after what is not prose is taken out (placeholders, ``<code>``,
``[options]``, ``option_names``, ``a/b`` keyword lists), so ``.unotop10 rating`` is not a rating.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from unobot.i18n import DOMAINS, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = ROOT / "docs" / "i18n"
LANGS = [lang for lang in LANGUAGES if lang != "en"]

ENGLISH: dict[str, str] = {
    # the cards, as the message names them (a card's own name, not a verb: "is skipped" is not)
    "skip": r"\bskip\b(?! everyone| all| to content)",
    "reverse": r"(?<!wild )\breverse\b(?! draw)",
    "draw_two": r"\bdraw two\b",
    "wild": r"\bwild\b(?! draw| colour| reverse)",
    "wild_draw_four": r"\bwild draw four\b",
    # the game's words
    "mercy_rule": r"\bmercy rule\b",
    "no_mercy": r"\bno[ -]mercy\b",
    "seven_o": r"\bseven-o\b",
    "jump_in": r"\bjump[- ]in(?:s)?\b|\bjumps in\b",
    "challenge": r"\bchalleng\w*",
    "match": r"\bmatch(?:es)?\b(?! \{)",
    "hand": r"\bhands?\b",
    "round": r"\brounds?\b",
    "rating": r"(?<!only )(?<!\) or )\bratings?\b",
    "channel": r"\bchannels?\b",
    "computer_player": r"\bcomputer players?\b",
    "team": r"\bteams?\b(?! or\s*$)",
    # UNO Flip
    "uno_flip": r"\buno flip\b",
    "light_side": r"\blight[- ]side\b",
    "dark_side": r"\bdark[- ]side\b",
    # tournaments
    "rotation": r"\brotation\b",
    "bye": r"\bbyes?\b",
    # (not the subcommand in a usage line: "reserve <nick>")
    "reserve": r"\breserves?\b(?! <)",
}
"""Concept -> pattern on the English message id (case-insensitive)."""
LOOSE = {"hand"}
"""Concepts whose English word has another sense ("points in hand", "your hand"): their term is
not required, only their rejected words refused (a Spanish hand is never a *ronda*)."""
FACES = {"Skip", "Rev", "Skip all", "Disc. all", "Wild", "Rev +4", "Roulette"}
"""The site's card faces (``unobot/web/cards.py``): the name abbreviated to fit a drawn card, as
its players would (German ``Wahl``), so not held to the glossary's full name."""

_NOT_PROSE = re.compile(
    r"<code>.*?</code>|\{[^{}]*\}\w*|%\(\w+\)[sd]|\[[^\]]*\]|\S*[/=_]\S*|\.\w+"
    r"|\bmatch(?:es)? \{|^\w+(?= (?:is|are) \d)",
    re.S,
)
"""Placeholders (with the command a ``{p}`` begins), code, ``[options]``, ``a/b`` lists,
``key=value``, ``option_names``, ``.commands``, an option named before its range (``rounds is 1
to 100``): not the sentence's words. ``does not match {top}`` is a card's fit, not a match."""


@dataclass(frozen=True)
class Entry:
    """One row of a glossary: the concept, the term to use, the words never to use."""

    concept: str
    use: tuple[str, ...]
    never: tuple[str, ...]


def _word(term: str) -> re.Pattern[str]:
    """A glossary word as a pattern: whole words, any case; ``*`` takes any ending, so
    ``Durchg*`` is ``Durchgang`` and ``Durchgänge``, ``joueur* ordinateur*`` a plural too."""
    body = r"\w*".join(re.escape(part).replace(r"\ ", r"\s+") for part in term.split("*"))
    tail = "" if term.endswith("*") else r"(?!\w)"
    return re.compile(rf"(?<!\w){body}{tail}", re.I)


def glossary(lang: str) -> list[Entry]:
    """The rows of ``docs/i18n/<lang>.md``'s table "One term per concept"."""
    text = (GLOSSARIES / f"{lang}.md").read_text(encoding="utf-8")
    section = text.split("## One term per concept", 1)[1]
    entries = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if (
            not line.startswith("|")
            or len(cells) != 3
            or cells[0] in ("concept", "")
            or (set(cells[0]) <= {"-", ":"})
        ):
            continue
        concept = cells[0].strip("`")
        use, never = ([w.strip() for w in c.split(",") if w.strip()] for c in cells[1:])
        entries.append(Entry(concept, tuple(use), tuple(never)))
    return entries


def _strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def _ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _prose(text: str) -> str:
    return _NOT_PROSE.sub(" ", text)


def misuses(lang: str) -> list[str]:
    """``file: msgid: what is wrong`` for every line that breaks the glossary of ``lang``."""
    entries = glossary(lang)
    found = []
    for name in DOMAINS:
        path = Path(LOCALE_DIR) / lang / "LC_MESSAGES" / f"{name}.po"
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=name)
        for message in catalog:
            if not message.id or (name == "web" and message.id in FACES):
                continue
            english = " ".join(_prose(i) for i in _ids(message))
            named = [e for e in entries if re.search(ENGLISH[e.concept], english, re.I)]
            # A word rejected for one concept may be the term of another the message also names
            # ("this round: this hand is the last"): the terms of all of them are allowed.
            uses = [_word(w) for e in named for w in e.use]
            where = f"{path.relative_to(ROOT)}: {_ids(message)[0]!r}"
            for s in _strings(message):
                said = _prose(s)
                # "Super Joker +4" holds the rejected "Joker +4": inside a term, a word is fine.
                spans = [m.span() for u in uses for m in u.finditer(said)]
                for e in named:
                    if e.concept not in LOOSE and not any(_word(w).search(said) for w in e.use):
                        found.append(f"{where}: {e.concept} is not said {' / '.join(e.use)}")
                    for w in e.never:
                        for hit in _word(w).finditer(said):
                            if not any(a <= hit.start() and hit.end() <= b for a, b in spans):
                                found.append(f"{where}: {e.concept} said {hit.group(0)!r}")
    return sorted(set(found))


def test_every_glossary_names_known_concepts_and_the_cards() -> None:
    for lang in LANGS:
        entries = glossary(lang)
        concepts = [e.concept for e in entries]
        assert len(concepts) == len(set(concepts)), lang
        assert set(concepts) <= ENGLISH.keys(), (lang, set(concepts) - ENGLISH.keys())
        cards = {"skip", "reverse", "draw_two", "wild", "wild_draw_four"}
        assert cards | {"rating", "channel", "mercy_rule", "jump_in"} <= set(concepts), lang
        assert {"uno_flip", "light_side", "dark_side"} <= set(concepts), lang
        assert all(e.use for e in entries), lang


def test_the_check_finds_a_rejected_word_and_a_missing_term() -> None:
    entry = Entry("rating", ("cote",), ("classement",))
    assert _word("classement").search("Classement: une estimation")
    assert not _word("cote").search("Classement: une estimation")
    assert _word("Durchg*").search("zwei Durchgänge")
    assert not _word("Runde").search("Turnierrunde")
    assert re.search(ENGLISH[entry.concept], _prose("rating {rating} ({n} rated game)"), re.I)
    assert not re.search(ENGLISH["rating"], _prose("{p}unotop10 [rating], pw/ppg/rating"), re.I)
    assert not re.search(ENGLISH["match"], _prose("{card} does not match {top}"), re.I)


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_uses_the_glossarys_terms(lang: str) -> None:
    problems = misuses(lang)
    assert not problems, f"{len(problems)} lines break docs/i18n/{lang}.md:\n" + "\n".join(problems)


_GENDERED_PL = re.compile(
    # (after "gra"/"turniej" the word agrees with the game or the tournament, not the nick)
    r"\b(?!kanał)\w+(?:łeś|łaś|łem|łam)\b"  # "zagrałeś", "wróciłem" (not "kanałem")
    r"|(?<!gra )(?<!turniej )\{(?:nick|name|starter|challenger|catcher|other|new|old|by)\} "
    r"(?:nie |już |się |jest )*\w+(?:ł|ła|ny|na|ty|ta)\b"  # "{nick} odpadł", "{name} jest usunięty"
)
"""A Polish past tense or participle takes a gender; a nick's or the reader's is not known."""


def test_polish_names_no_ones_gender() -> None:
    found = []
    for name in DOMAINS:
        path = Path(LOCALE_DIR) / "pl" / "LC_MESSAGES" / f"{name}.po"
        with path.open("rb") as f:
            for message in read_po(f, locale="pl", domain=name):
                for s in _strings(message) if message.id else ():
                    if hit := _GENDERED_PL.search(s.lower()):
                        found.append(f"pl/{name}: {_ids(message)[0]!r}: {hit.group(0)!r}")
    assert not found, "\n".join(found)
