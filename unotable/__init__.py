"""unotable: a rules-exact UNO engine, standard library only.

>>> from unotable import Game
>>> game = Game.new(seats=4, ruleset="official", seed=7)
>>> game.seats, len(game.hand(0))
(4, 7)
"""
from unotable.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    parse_action,
)
from unotable.cards import Card, Color, Rank
from unotable.decks import DeckKind
from unotable.errors import (
    IllegalActionError,
    InvalidActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    RulesetError,
    UnoError,
)
from unotable.game import Game, LegalActions
from unotable.rules import (
    CustomEffect,
    DealerSelection,
    EliminationFinal,
    FirstCardWild,
    Ruleset,
    Scoring,
    ShuffleLastCard,
    Stacking,
    SwapLastCard,
    Wd4Rule,
)
from unotable.scoring import Outcome, RoundResult
from unotable.state import Phase

__version__ = "0.1.0"

__all__ = [
    "Accept",
    "Action",
    "CallUno",
    "Card",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Color",
    "CustomEffect",
    "DealerSelection",
    "DeckKind",
    "Draw",
    "EliminationFinal",
    "FirstCardWild",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "LegalActions",
    "NotYourTurnError",
    "NotationError",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Rank",
    "RecordError",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "Scoring",
    "ShuffleLastCard",
    "Stacking",
    "SwapLastCard",
    "UnoError",
    "Wd4Rule",
    "parse_action",
]
