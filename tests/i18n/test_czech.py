"""Czech: every string of every template, Python message and JavaScript string is translated, and
none is fuzzy. The strings are gathered afresh from the code (makemessages), so a new English
string without its Czech fails here."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]
IGNORE = [".venv", "staticfiles", "tests", "test-output", "node_modules"]
PASSWORD = "correct-horse-battery"
SOURCES = [
    "accounts",
    "chat",
    "games",
    "moderation",
    "profiles",
    "ratings",
    "replays",
    "tournaments",
    "harehra_site",
    "templates",
    "static",
]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is installed by scripts/test")
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_string_has_a_czech_translation(
    domain: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sources are gathered through links in a folder of their own, so the catalogue made
    # from them lands there and the repository's own stays as it is.
    for name in SOURCES:
        (tmp_path / name).symlink_to(ROOT / name)
    target = tmp_path / "locale" / "cs" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(ROOT / "locale" / "cs" / "LC_MESSAGES" / f"{domain}.po", target)
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command(
            "makemessages", locale=["cs"], domain=domain, ignore_patterns=IGNORE, symlinks=True, verbosity=0
        )
    po = polib.pofile(str(target / f"{domain}.po"))
    missing = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not missing, f"{len(missing)} strings have no Czech translation: {missing[:20]}"
    assert not fuzzy, f"{len(fuzzy)} Czech translations are fuzzy: {fuzzy[:20]}"


def test_the_compiled_catalogues_match_their_sources() -> None:
    for domain in ("django", "djangojs"):
        po = polib.pofile(str(ROOT / "locale" / "cs" / "LC_MESSAGES" / f"{domain}.po"))
        mo = polib.mofile(str(ROOT / "locale" / "cs" / "LC_MESSAGES" / f"{domain}.mo"))
        compiled = {(e.msgid, e.msgid_plural or ""): (e.msgstr, e.msgstr_plural) for e in mo}
        for e in po.translated_entries():
            got = compiled.get((e.msgid, e.msgid_plural or ""))
            assert got is not None, f"{domain}.mo lacks {e.msgid!r}: run compilemessages"


@pytest.mark.django_db
def test_czech_is_taken_from_the_browser_and_switched_by_the_header() -> None:
    assert ("cs", "Čeština") in settings.LANGUAGES
    c = Client()
    home = c.get("/", HTTP_ACCEPT_LANGUAGE="cs,en;q=0.5").content.decode()
    assert '<html lang="cs">' in home and "Herna" in home and "Hrát hned" in home
    english = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Play now" in english and 'value="cs"' in english
    # The switcher remembers the choice over the browser's.
    r = c.post("/i18n/setlang/", {"language": "en", "next": "/lobby/"}, HTTP_ACCEPT_LANGUAGE="cs")
    assert r.status_code == 302 and r["Location"] == "/lobby/"
    assert "Open tables" in c.get("/lobby/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    catalog = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Jste na tahu" in catalog


@pytest.mark.django_db
def test_the_chosen_language_follows_the_person_to_another_browser(make_user: Any) -> None:
    user = make_user()
    first = Client()
    first.force_login(user)
    first.post("/i18n/setlang/", {"language": "cs", "next": "/"})
    assert first.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode().count("Hrát hned") == 1
    bad = first.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert bad.status_code == 302  # Django's own answer; nothing is remembered
    # Another browser, English by its Accept-Language, signs in: the site speaks Czech.
    other = Client()
    assert "Play now" in other.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    r = other.post(
        "/accounts/login/", {"username": user.get_username(), "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert r.status_code == 302
    assert "Hrát hned" in other.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_each_event_sentence_has_one_czech_in_both_catalogues() -> None:
    """The sentence table (games/sentences.py) is said by the server (django.po) and by the pages
    (djangojs.po, from its copy static/js/table/sentences.js): the same Czech in both."""
    from games.sentences import SEAT, SENTENCES, Plural

    templates = {Plural(SEAT, "")}
    for cases in SENTENCES.values():
        for say in cases:
            said = (say.other, say.you, say.to_you)
            templates |= {t if isinstance(t, Plural) else Plural(t, "") for t in said if t}
    folder = ROOT / "locale" / "cs" / "LC_MESSAGES"
    catalogues = [polib.pofile(str(folder / f"{domain}.po")) for domain in ("django", "djangojs")]
    for singular, plural in sorted(templates):
        found = [po.find(singular) for po in catalogues]
        assert all(e is not None and e.translated() and e.msgid_plural == plural for e in found), singular
        server, page = found
        assert (server.msgstr, server.msgstr_plural) == (page.msgstr, page.msgstr_plural), singular


# The Czech site speaks formally (vykání: "Pošlete", "Napište", "Vaše"): none of these informal
# forms (tykání) may be said. Imperatives, the verbs' second person singular, and the possessives
# and pronouns of "ty" (not "odešli": "odešli jste" is formal past, not the imperative).
INFORMAL = """
    pošli napiš klikni zkus vyber zvol zahraj hraj vezmi počkej přihlas odpověz odhoď zkopíruj založ
    požádej odejdi vrať uhni sleduj sedni přisedni přidej projdi použij potvrď podívej načti
    prohlédni vlož zavři nech dej vítej zaregistruj zůstaň dober spal pasuj miř pošli pozvi zadej
    otevři ukaž najdi spusť změň nastav ulož sdílej stáhni obnov opusť přečti začni pusť
    jsi nejsi sis ses máš nemáš můžeš nemůžeš musíš nesmíš budeš hraješ bereš chceš víš vidíš
    odhazuješ vypadáváš přijdeš přicházíš vezmeš uhneš udržíš skočíš mícháš díváš posíláš
    tvůj tvoje tvá tvé tvého tvému tvým tvou tvých tvými tebe tobě tebou
"""


def test_the_czech_catalogues_address_the_reader_formally() -> None:
    import re

    words = sorted(set(INFORMAL.split()))
    informal = re.compile(r"(?<!\w)(" + "|".join(words) + r")(?!\w)", re.IGNORECASE)
    found = []
    for domain in ("django", "djangojs"):
        for e in polib.pofile(str(ROOT / "locale" / "cs" / "LC_MESSAGES" / f"{domain}.po")):
            for said in [e.msgstr, *e.msgstr_plural.values()]:
                hit = informal.search(said or "")
                if hit and not e.obsolete:
                    found.append(f"{domain}: {hit.group(0)!r} in {said!r}")
                # "ty" is also "those" (ty karty): only "you" alone, or after a name, is caught.
                if not e.obsolete and (said == "ty" or "(ty)" in (said or "")):
                    found.append(f"{domain}: 'ty' in {said!r}")
    assert not found, f"{len(found)} informal Czech strings:\n" + "\n".join(found[:30])
