"""Where ``unotable play`` keeps the record of every match: the user's data directory.

Every finished or abandoned match is kept (``unotable replay --list`` lists them), never in the
current directory. The directory is, in this order of preference:

- ``$UNOTABLE_DATA_DIR/records`` (the tests point it at a temporary directory);
- ``$XDG_DATA_HOME/unotable/records`` when ``XDG_DATA_HOME`` is an absolute path (the XDG Base
  Directory specification ignores a relative one);
- ``~/.local/share/unotable/records``.

>>> records_dir({"UNOTABLE_DATA_DIR": "/tmp/u"}).as_posix()
'/tmp/u/records'
>>> records_dir({"XDG_DATA_HOME": "/data", "HOME": "/home/ann"}).as_posix()
'/data/unotable/records'
>>> records_dir({"XDG_DATA_HOME": "relative", "HOME": "/home/ann"}).as_posix()
'/home/ann/.local/share/unotable/records'
"""
from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from unotable.errors import RecordError
from unotable.game import Game
from unotable.record import Record, replay

__all__ = ["data_dir", "find_record", "keep_record", "record_lines", "records_dir"]


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The data directory of unotable (see the module's text for the order)."""
    env = os.environ if env is None else env
    override = env.get("UNOTABLE_DATA_DIR")
    if override:
        return Path(override)
    xdg = env.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "unotable"
    home = env.get("HOME")
    base = Path(home) if home else Path.home()
    return base / ".local" / "share" / "unotable"


def records_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where the records of matches are kept."""
    return data_dir(env) / "records"


def keep_record(game: Game, names: Sequence[str], seed: int, folder: Path | None = None) -> Path:
    """Write the record of ``game`` (with the seat names) into ``folder`` (default
    :func:`records_dir`) under a new name; the path written. Raises ``OSError`` when it cannot."""
    folder = records_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = Record.from_game(game, names=names).to_json(indent=2) + "\n"
    for n in range(1000):
        suffix = f"-{n}" if n else ""
        path = folder / f"unotable-{stamp}-seed{seed}{suffix}.json"
        try:
            with path.open("x", encoding="utf-8") as handle:
                handle.write(text)
        except FileExistsError:
            continue
        return path
    raise OSError(f"too many records named unotable-{stamp}-seed{seed} in {folder}")


def find_record(name: str, folder: Path | None = None) -> Path:
    """``name`` as a path when it exists, else the kept record of that name (with or without .json)."""
    path = Path(name)
    if path.exists() or path.is_absolute() or len(path.parts) > 1:
        return path
    folder = records_dir() if folder is None else folder
    for candidate in (folder / name, folder / f"{name}.json"):
        if candidate.exists():
            return candidate
    return path


def _summary(path: Path) -> str:
    try:
        record = Record.from_json(path.read_text(encoding="utf-8"))
        game = replay(record, events=False)
    except (OSError, RecordError, ValueError) as exc:
        return f"cannot be read: {exc}"
    names = list(record.names) if record.names else [f"Seat {s}" for s in range(record.seats)]
    actions = sum(1 for seat, _ in record.actions if seat is not None)
    outcome = game.outcome()
    if outcome is not None:
        winners = " and ".join(names[s] for s in outcome.winners) or "nobody"
        state = f"finished: {winners} won after {outcome.rounds} round{'' if outcome.rounds == 1 else 's'}"
    else:
        state = f"abandoned in round {game.round_no}"
    return (f"{', '.join(names)} · {record.ruleset.describe()} · "
            f"{actions} action{'' if actions == 1 else 's'} · {state}")


def record_lines(folder: Path | None = None) -> Iterator[str]:
    """One line per kept record, oldest first: its file name and what it holds."""
    folder = records_dir() if folder is None else folder
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not paths:
        yield f"No records yet in {folder}."
        return
    yield f"Records in {folder} (replay one with: unotable replay NAME):"
    for path in paths:
        yield f"  {path.name}  {_summary(path)}"
