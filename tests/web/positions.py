"""Positions the browser tests start from (tests/web/position_server.py): target score -> position.

A table created with one of these target scores starts from that position (with the table's own
rule set); seat 0 is Ann, 1 Bo, 2 Cy (three_friends in browser_helpers.py sits them so).
"""

from __future__ import annotations

from typing import Any

BASE = {"fill": "draw", "dealer": 2, "active": 0}
POSITIONS: dict[str, dict[str, Any]] = {
    # the top card is R5 in each
    "11": {**BASE, "hands": [["W4", "R1", "G7"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"]},
    "12": {**BASE, "hands": [["R1", "R2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"]},
    "13": {**BASE, "hands": [["R7", "G1", "B2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6", "Y9"]],
           "discard": ["R5"]},
    "14": {**BASE, "hands": [["R6", "RD2", "B2"], ["GD2", "Y3", "Y4"], ["R6", "Y9", "G3"]],
           "discard": ["R5"]},
    "15": {**BASE, "hands": [["WCR", "G1", "B2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"],
           "draw": ["Y7", "G9"]},
    # a skip, then a reverse: each a banner
    "16": {**BASE, "hands": [["RS", "G1", "B2"], ["Y3", "RR", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"]},
    # a long hand (No Mercy sizes): 26 cards for Ann
    "17": {**BASE, "hands": [
        ["R1", "R2", "R3", "R4", "R6", "R7", "R8", "R9", "Y1", "Y2", "Y3", "Y4", "Y6",
         "G1", "G2", "G3", "G4", "G6", "B1", "B2", "B3", "B4", "B6", "B7", "W", "W4"],
        ["Y7", "Y8", "B5"], ["G7", "G8", "B8"]], "discard": ["R5"]},
    # a Wild Draw Four that Ann may play while holding red (guilty if challenged), for the log's list
    "18": {**BASE, "hands": [["W4", "R1", "G7", "B9"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]],
           "discard": ["R5"]},
    # Ann's last card: the round ends on her first play (6 points, short of the 19 that win the match)
    "19": {**BASE, "hands": [["R1"], ["Y1", "Y2"], ["G1", "G2"]], "discard": ["R5"]},
    # the same, but the 6 points win the match (target 5): the match's summary and the rematch
    "5": {**BASE, "hands": [["R1"], ["Y1", "Y2"], ["G1", "G2"]], "discard": ["R5"]},
    # Ann holds nothing red: she draws R9, which she may play or keep (the play-drawn prompt)
    "61": {**BASE, "hands": [["G1", "B2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"],
           "draw": ["R9"]},
}

# The tallest table at each seat count: the viewer (seat 0) plays first, so the page shows the
# turn banner and the prompt above the hand, and the dealer (the last seat) wears its badge
# (test_friends.py::test_the_whole_table_on_screen_when_the_viewer_plays_first). Target score 20 + seats;
# 40 + seats: the same when the first card is a wild whose colour the viewer names.
_HANDS = ["R3", "Y2", "Y3", "GS", "B2", "B8", "B9"]
_OTHERS = [["R1", "R2", "R4", "R6", "R8", "R9", "G1"], ["Y1", "Y4", "Y6", "Y8", "Y9", "G2", "G3"],
           ["G4", "G6", "G8", "G9", "B1", "B3", "B4"], ["B6", "R1", "R2", "R4", "Y1", "Y4", "G1"],
           ["R6", "R8", "Y6", "Y8", "G2", "G3", "G4"], ["B1", "B3", "B4", "B6", "R9", "Y9", "G6"],
           ["RS", "YS", "GS", "BS", "RR", "YR", "GR"], ["BR", "RD2", "YD2", "GD2", "BD2", "R0", "Y0"],
           ["G0", "B0", "W", "W", "R5", "Y5", "G5"]]
for _n in (2, 4, 10):
    POSITIONS[str(20 + _n)] = {"fill": "draw", "dealer": _n - 1, "active": 0,
                               "hands": [_HANDS, *_OTHERS[:_n - 1]], "discard": ["B7"]}
    # taller still: the first card is a wild and the viewer names its colour (target 40 + seats)
    POSITIONS[str(40 + _n)] = {**POSITIONS[str(20 + _n)], "discard": ["W4"], "color": None,
                               "phase": "choose_color", "color_for": "first_card"}

