"""The seed fixes of issue 25 (deliverable 2), beside their goldens.

* 六盘水 抢杠 — seed 004 (2) 「闲家被抢杠和,闲自摸,闲家支付胡牌者牌型分*3+连庄分」: a non-dealer
  who robs a kong is paid the pattern × 3 and the streak, no 庄 part
  (``settle.hu.rob_kong_dealer_part: dealer_wins``, liupanshui revision 3).  The goldens are
  ``tests/golden/liupanshui/16``–``19``; here the same rounds under revision 2 (the old
  reading, which a child pinned ``extends: liupanshui@2`` keeps) and the bot's price.
* 十二张落地 例二 — seed 002 「玩家A放一张让玩家 B 12张/例牌达成，及后玩家A再放一张让玩家C或D 12张/例牌
  达成，此时只有玩家A必要承担包玩家B自模的使命」: a feeder is liable only for the first hand he
  brought to twelve down, by the order of the feeding discards
  (``settle.twelve_down.feeder_liable: first``, jinyou revision 4; goldens jinyou 13, 14).
"""

from __future__ import annotations

from pathlib import Path

import goldenlib
import pytest

from zhuoji import roundend
from zhuoji import tiles as T
from zhuoji.agents.expert_value import table_fan
from zhuoji.errors import ScenarioError
from zhuoji.hand import Form
from zhuoji.outcome import RoundEnd, SeatEnd, Win, WinHow
from zhuoji.rules.hu import HuPricer
from zhuoji.settle import settle
from zhuoji.variant_io import load_variant

GOLDEN = Path(__file__).parent / "golden"

#: seed 004 (2) cases: the golden file, its totals today, the totals of the old reading
ROB_KONG = [
    ("16_rob_kong_nondealer_pinghu", [0, 0, -3, 3], [0, 0, -4, 4]),
    ("17_rob_kong_nondealer_streak", [0, 0, -4, 4], [0, 0, -5, 5]),
    ("18_rob_kong_nondealer_qingyise", [0, 0, -30, 30], [0, 0, -32, 32]),
    ("19_rob_kong_dealer_robbed", [-3, 0, 0, 3], [-4, 0, 0, 4]),
]


def _totals(case: goldenlib.Case, variant: str, overrides: list[str]) -> list[int]:
    data = dict(case.data, variant=variant)
    _, _, ledger = roundend.settle_file(
        roundend.parse(data, case.path.name), None, overrides, label=case.path.name
    )
    return ledger.totals()


@pytest.mark.parametrize(("name", "now", "old"), ROB_KONG, ids=[c[0] for c in ROB_KONG])
def test_a_non_dealer_robbing_a_kong_gets_no_dealer_part(
    name: str, now: list[int], old: list[int]
) -> None:
    case = goldenlib.load_case(GOLDEN / "liupanshui" / f"{name}.yaml")
    assert list(case.expected.totals) == now
    assert _totals(case, "liupanshui", []) == now
    # the old reading: revision 2, or the key at its default
    assert _totals(case, "liupanshui@2", []) == old
    assert _totals(case, "liupanshui", ["settle.hu.rob_kong_dealer_part=always"]) == old


def test_a_dealer_robbing_keeps_the_dealer_part() -> None:
    """Seed 004 (2) 「闲家被抢杠和,庄自摸,闲家支付庄家牌型分*3+连庄数*3」: golden 08 is unchanged."""
    case = goldenlib.load_case(GOLDEN / "liupanshui" / "08_rob_kong_dealer.yaml")
    assert _totals(case, "liupanshui", []) == [9, 0, -9, 0] == _totals(case, "liupanshui@2", [])


def _rob_end(dealer: int) -> RoundEnd:
    """Seat 1 robs seat 2's added kong of 4p with a plain hand (平胡)."""
    hands = ("2468m1379p2468s3s", "123m456m789m23p55p", "1379m2468p1357s9s", "2468m1379p2468s3s")
    return RoundEnd(
        players=4,
        dealer=dealer,
        streak=0,
        seats=tuple(SeatEnd(tuple(T.parse(h))) for h in hands),
        wins=(Win(1, WinHow.ROB_KONG, 2),),
        win_tile=T.parse_one("4p"),
    )


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_the_bot_prices_a_robbed_kong_as_settlement_charges_it(dealer: int) -> None:
    """The ``hu`` pricer's ``rob_cost`` drops the robbed dealer's 庄 part too (seed 004 (2))."""
    rs = load_variant("liupanshui")
    hu = [p for p in rs.pricing.pricers if isinstance(p, HuPricer)]
    assert len(hu) == 1 and hu[0].params.rob_kong_dealer_part == "dealer_wins"
    fan = table_fan(rs, (("form", Form.STANDARD), ("rob_kong", True), ("self_draw", True)))
    ledger = settle(rs, _rob_end(dealer))
    paid = sum(e.amount for e in ledger.entries if e.payer == 2 and e.payee == 1)
    assert paid == 3
    assert rs.pricing.rob_cost(fan, payer_dealer=dealer == 2, streak=0) == pytest.approx(paid)


#: seed 002 例二 cases: the golden file, its totals today, the totals of the old reading
TWELVE_DOWN = [
    ("13_twelve_down_second_feed", [-2, -2, 6, -2], [-6, 0, 6, 0]),
    ("14_twelve_down_first_feed", [-6, 0, 6, 0], [-6, 0, 6, 0]),
]


@pytest.mark.parametrize(("name", "now", "old"), TWELVE_DOWN, ids=[c[0] for c in TWELVE_DOWN])
def test_a_feeder_is_liable_for_the_first_twelve_down_hand_only(
    name: str, now: list[int], old: list[int]
) -> None:
    case = goldenlib.load_case(GOLDEN / "jinyou" / f"{name}.yaml")
    assert list(case.expected.totals) == now
    assert _totals(case, "jinyou", []) == now
    assert _totals(case, "jinyou@3", []) == old
    assert _totals(case, "jinyou", ["settle.twelve_down.feeder_liable=every"]) == old


def test_the_order_of_two_feeds_must_be_known() -> None:
    """A round end that leaves out one of the two feeds cannot say whose came first: it is
    refused, naming the meld whose feeding discard is missing, and nothing is settled."""
    case = goldenlib.load_case(GOLDEN / "jinyou" / "13_twelve_down_second_feed.yaml")
    data = dict(case.data, discards=[d for d in case.data["discards"] if d["tile"] != "5m"])
    with pytest.raises(ScenarioError) as err:
        roundend.settle_file(roundend.parse(data, "13"), None, [], label="13")
    assert "seats[1].melds[3]: seat 0 fed the fourth meld of seats 1, 2" in str(err.value)
    assert "settle.twelve_down.feeder_liable: first" in str(err.value)
    # under the old reading the order does not matter, and the same file settles
    roundend.settle_file(
        roundend.parse(data, "13"), None, ["settle.twelve_down.feeder_liable=every"], label="13"
    )
