"""The board and card data files are complete and consistent."""
from __future__ import annotations

from bot.games.monopol.board import CARDS, DECKS, DEEDS, GROUPS, HOTELS, HOUSES, SQUARES, interest


def test_board_has_40_squares_in_order_with_28_deeds() -> None:
    assert [s.index for s in SQUARES] == list(range(40))
    assert len(DEEDS) == 28


def test_colour_groups_have_the_right_sizes() -> None:
    sizes = {group: len(squares) for group, squares in GROUPS.items()}
    assert sizes == {"brown": 2, "lightblue": 3, "pink": 3, "orange": 3, "red": 3, "yellow": 3,
                     "green": 3, "darkblue": 2, "station": 4, "utility": 2}


def test_mortgage_is_half_the_price_and_lifting_adds_ten_percent() -> None:
    for index in DEEDS:
        assert SQUARES[index].mortgage * 2 == SQUARES[index].price
    assert interest(5) == 10  # mortgage 100


def test_street_rents_increase_with_every_building() -> None:
    for sq in SQUARES:
        if sq.kind == "street":
            assert len(sq.rents) == 6
            assert all(a < b for a, b in zip(sq.rents, sq.rents[1:], strict=False)), sq.name
            assert sq.house_cost in (50, 100, 150, 200)


def test_prices_rise_around_the_board_within_each_side() -> None:
    streets = [sq for sq in SQUARES if sq.kind == "street"]
    assert all(a.price <= b.price for a, b in zip(streets, streets[1:], strict=False))


def test_taxes_and_named_squares_match_the_norwegian_edition() -> None:
    assert (SQUARES[4].name, SQUARES[4].amount) == ("Formueskatt", 200)
    assert (SQUARES[38].name, SQUARES[38].amount) == ("Luksusskatt", 100)
    assert SQUARES[6].name == "Kongens gate" and SQUARES[39].name == "Rådhusplassen"
    assert SQUARES[12].name == "Oslo Energi" and SQUARES[28].name == "Vannverket"


def test_each_deck_has_16_cards_and_one_jail_card() -> None:
    for deck, ids in DECKS.items():
        assert len(ids) == 16
        assert sum(CARDS[i].effect == "jail_free" for i in ids) == 1, deck
    effects = {"advance", "nearest", "collect", "pay", "jail_free", "back", "go_to_jail", "repairs",
               "pay_each", "collect_each"}
    assert {c.effect for c in CARDS.values()} <= effects


def test_the_bank_has_32_houses_and_12_hotels() -> None:
    assert (HOUSES, HOTELS) == (32, 12)
