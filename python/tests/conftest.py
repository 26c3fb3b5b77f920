"""Where the tests find games: the repository's ``games/``, the RBG suite
(``RBG_SUITE`` or ``../shared/rbg-suite`` beside the repository) and the RG
examples (``RG_EXAMPLES`` or ``../shared/rg/examples``)."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SUITE = pathlib.Path(os.environ.get("RBG_SUITE", REPO.parent / "shared" / "rbg-suite"))
RG_EXAMPLES = pathlib.Path(os.environ.get("RG_EXAMPLES", REPO.parent / "shared" / "rg" / "examples"))


def suite_games():
    """Every suite game (``games/`` and ``games/nsplit/``), sorted."""
    games = SUITE / "games"
    if not games.is_dir():
        if os.environ.get("CI"):
            raise RuntimeError(f"RBG suite missing at {games}")
        return []
    return sorted(list(games.glob("*.rbg")) + list(games.glob("nsplit/*.rbg")))


def suite_perft():
    """``{(game, depth): leaves}`` from the suite's ``perft.tsv``."""
    out = {}
    path = SUITE / "perft.tsv"
    if path.exists():
        for line in path.read_text().splitlines()[1:]:
            f = line.split("\t")
            if len(f) >= 3:
                out[(f[0], int(f[1]))] = int(f[2])
    return out


@pytest.fixture
def ttt_path():
    return str(REPO / "games" / "ticTacToe.rbg")
