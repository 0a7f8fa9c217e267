"""/rules through the fake Discord: a free-text question gets the best section's most relevant
paragraph in the asker's language and buttons for the next two candidates, which keep working after
a restart and show their whole section."""
from __future__ import annotations

import pytest

from bot.services import rules
from tests.discord.conftest import BotFactory
from tests.fakediscord import FakeDiscord

# The lookup reads no database (an in-memory index of the rules files): one backend is enough.
pytestmark = pytest.mark.sqlite_only


@pytest.mark.parametrize(("locale", "lang", "game", "question", "topic", "title"), [
    ("sv-SE", "sv", "tjuv", "hur flyr man ur stan med pengarna", "escape", "Flykt"),
    ("cs", "cs", "monopol", "jak se dostanu z vězení", "jail", "Vězení"),
    ("sv-SE", "sv", "tolp", "hur frågar man efter en valör i kortbytet", "exchange", "Kortbyte"),
    ("cs", "cs", "tolp", "jak se při výměně zeptat na hodnotu", "exchange", "Výměna karet"),
])
async def test_a_free_text_question_gets_the_paragraph_and_two_alternatives(
        fake: FakeDiscord, make_bot: BotFactory, locale: str, lang: str, game: str, question: str,
        topic: str, title: str) -> None:
    bot = await make_bot()
    player = fake.add_member("asker", locale=locale)
    hits = rules.search(game, question, lang)
    assert [h.section.lang for h in hits] == [lang] * 3 and hits[0].section.topic == topic

    answer = await fake.interact(bot, fake.slash(player, "rules", game=game, topic=question))
    message = answer.original
    assert answer.ok and answer.ephemeral and message is not None
    assert title in message.content and f"`{topic}`" in message.content
    assert hits[0].paragraph in message.content
    if len(hits[0].section.paragraphs) > 1:  # only the paragraph, the rest behind a button
        assert hits[0].section.body not in message.content
        assert hits[0].paragraph != hits[0].section.paragraphs[0]
    alternatives = [h.section for h in hits[1:]]
    for alternative in alternatives:
        button = message.component(custom_id=f"rules:{game}:{alternative.topic}")
        assert button["label"] == alternative.title
    if len(hits[0].section.paragraphs) > 1:
        assert message.component(custom_id=f"rules:{game}:{topic}")  # the whole best section

    await fake.close_bot(bot)
    restarted = await make_bot()
    pressed = await fake.interact(restarted, fake.click(player, message, f"rules:{game}:{alternatives[0].topic}"))
    assert pressed.ok and pressed.ephemeral
    assert alternatives[0].body in pressed.text and alternatives[0].title in pressed.text
    if len(hits[0].section.paragraphs) > 1:
        whole = await fake.interact(restarted, fake.click(player, message, f"rules:{game}:{topic}"))
        assert hits[0].section.body in whole.text
    fake.assert_clean()


async def test_a_topic_id_answers_with_the_whole_section(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    player = fake.add_member("reader", locale="no")
    answer = await fake.interact(bot, fake.slash(player, "rules", game="monopol", topic="jail"))
    section = rules.section("monopol", "jail", "nb")
    assert section is not None and section.body in answer.text and not answer.original.custom_ids
    fake.assert_clean()


async def test_topic_autocomplete_offers_the_sections_that_answer_the_question_typed(
        fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    player = fake.add_member("typist", locale="sv-SE")
    typed = await fake.interact(bot, fake.autocomplete(player, "rules", focused="topic", game="monopol",
                                                       topic="hur kommer jag ut ur fängelset"))
    assert typed.choices and typed.choices[0] == {"name": "Fängelse", "value": "jail"}
    prefix = await fake.interact(bot, fake.autocomplete(player, "rules", focused="topic", game="monopol", topic="Bygg"))
    assert prefix.choices[0]["value"] == "building"
    fake.assert_clean()
