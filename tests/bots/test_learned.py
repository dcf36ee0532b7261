"""The learned bot: legal answers everywhere, views only, the heuristic outside the official rules,
its network file, and a tiny version trained end to end (collect, fit, play)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from unotable import Game, Phase, Ruleset
from unotable.actions import Action
from unotable.bots import make_bot
from unotable.bots.arena import run_arena
from unotable.bots.heuristic import HeuristicBot
from unotable.bots.learned import FEATURES, LearnedBot, applies, candidates, load_network
from unotable.views import PlayerView


def play_round(game: Game, bots: list[HeuristicBot], seed: int, limit: int = 400) -> list[tuple[int, Action]]:
    """Drive a round as the arena does (the active seat only, after each seat's calls and catches),
    checking every answer; returns the (seat, action) played."""
    n = game.seats
    rngs = [random.Random(seed * 10 + s) for s in range(n)]
    for s in range(n):
        bots[s].observe(game.events_for(s))
    played: list[tuple[int, Action]] = []
    while game.phase < Phase.ROUND_OVER and len(played) < limit:
        seat = game.active_seat
        legal = game.legal_actions_for(seat)
        choice = bots[seat].choose(game.view(seat), legal, rngs[seat])
        assert choice is not None and choice in legal, (choice, list(legal))
        events = game.play(choice, seat)
        played.append((seat, choice))
        for s in range(n):
            bots[s].observe([e for e in events if e.visible_to(s)])
    return played


@pytest.mark.parametrize(("preset", "seats"), [("official", 4), ("official", 2), ("official", 3),
                                               ("house", 4), ("no-mercy", 3), ("partners", 4)])
def test_the_learned_bot_answers_legally(preset: str, seats: int) -> None:
    for seed in range(2):
        game = Game.new(seats=seats, ruleset=preset, seed=seed)
        assert play_round(game, [LearnedBot() for _ in range(seats)], seed)


def test_outside_the_official_rules_it_is_the_heuristic() -> None:
    assert applies(Ruleset.preset("official")) and not applies(Ruleset.preset("house"))
    for preset in ("house", "official-112-swap"):
        a = play_round(Game.new(seats=4, ruleset=preset, seed=5), [LearnedBot() for _ in range(4)], 5)
        b = play_round(Game.new(seats=4, ruleset=preset, seed=5), [HeuristicBot() for _ in range(4)], 5)
        assert a == b


def test_under_the_official_rules_it_chooses_by_its_network() -> None:
    learned = play_round(Game.new(seats=4, seed=7), [LearnedBot() for _ in range(4)], 7)
    heuristic = play_round(Game.new(seats=4, seed=7), [HeuristicBot() for _ in range(4)], 7)
    assert learned != heuristic  # somewhere in a round the network picks another action
    # an overwhelming prior keeps the heuristic's every choice
    kept = play_round(Game.new(seats=4, seed=7), [LearnedBot(prior=10.0) for _ in range(4)], 7)
    assert kept == heuristic


def test_its_choice_is_the_candidate_the_network_rates_highest() -> None:
    bot = LearnedBot()
    game = Game.new(seats=4, seed=11)
    seen = 0
    for s in range(4):
        bot_s = LearnedBot() if s else bot
        bot_s.observe(game.events_for(s))
    while game.phase < Phase.ROUND_OVER and seen < 8:
        seat = game.active_seat
        view = game.view(seat)
        if seat == 0 and len(candidates(view, view.legal)) > 1 and len(view.hand) > 1:
            chances = bot.win_chances(view)
            options = candidates(view, view.legal)
            best = options[max(range(len(options)), key=chances.__getitem__)]
            assert bot.choose(view, view.legal, random.Random(0)) == best
            assert all(0.0 < p < 1.0 for p in chances)
            seen += 1
        choice = HeuristicBot().choose(view, view.legal, random.Random(seat))
        assert choice is not None
        events = game.play(choice, seat)
        bot.observe([e for e in events if e.visible_to(0)])
    assert seen > 0


def test_the_arena_hands_it_views_never_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[type, int]] = []
    choose = LearnedBot.choose

    def spy(self: LearnedBot, view: PlayerView, legal: object, rng: random.Random) -> object:
        seen.append((type(view), view.seat))
        return choose(self, view, legal, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(LearnedBot, "choose", spy)
    result = run_arena("official", 4, ["learned", "heuristic", "heuristic", "heuristic"], games=4, seed=2)
    assert result.row("learned").seat_games == 4
    assert seen and all(t is PlayerView for t, _ in seen)


def test_the_registry_and_a_bad_network_file(tmp_path: Path) -> None:
    bot = make_bot("learned:prior=0.01")
    assert bot.name == "learned" and isinstance(bot, LearnedBot) and bot.prior == 0.01
    assert load_network().inputs == len(FEATURES)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"features": ["x"], "layers": [], "mean": [], "scale": []}))
    with pytest.raises(ValueError, match="features"):
        LearnedBot(path=str(bad))
    with pytest.raises(ValueError, match="explore"):
        LearnedBot(explore=2.0)


def test_a_tiny_version_trains_end_to_end(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    torch = pytest.importorskip("torch")
    from research import train_learned

    rows, labels, games = train_learned.collect(seats=2, rounds=24, seed=3, explore=0.2)
    assert len(rows) == len(labels) == len(games) and all(len(r) == len(FEATURES) for r in rows)
    assert set(labels) == {0, 1} and max(games) == 23
    network, loss, base = train_learned.fit(rows, labels, train_learned.held_out_rows(games), hidden=8,
                                            epochs=2, log=False)
    assert loss == pytest.approx(loss) and base > 0.0
    # the plain-Python network computes what the fitted one does
    x = np.asarray(rows[:5], dtype=np.float32)
    mean, scale = np.asarray(network.mean), np.asarray(network.scale)
    h = (x - mean) * scale
    for i, (w, b) in enumerate(network.layers):
        h = h @ np.asarray(w).T + np.asarray(b)
        if i < len(network.layers) - 1:
            h = np.maximum(h, 0.0)
    expected = 1.0 / (1.0 + np.exp(-h[:, 0]))
    assert [network(r) for r in rows[:5]] == pytest.approx(expected.tolist(), abs=1e-5)
    assert torch.__version__
    # the script writes the file the bot plays
    data = tmp_path / "d.npz"
    model = tmp_path / "m.json"
    assert train_learned.main(["collect", "--seats", "2", "--rounds", "12", "--out", str(data)]) == 0
    assert train_learned.main(["fit", str(data), "--hidden", "8", "--epochs", "1", "--out", str(model)]) == 0
    result = run_arena("official", 2, [f"learned:path={model}", "heuristic"], games=4, seed=1)
    assert result.row(f"learned:path={model}").seat_games == 4


def test_the_timing_counts_every_decision_of_the_bot() -> None:
    from research.train_learned import decision_times

    mean, worst, count = decision_times("learned", 2, 1)
    assert count > 5 and 0.0 < mean <= worst
