"""The ``unotable`` command: ``play`` against bots, ``simulate`` bot matches, ``replay`` a record.

>>> main(["--version"])
unotable 0.2.0
0

``main(argv)`` returns the exit status instead of exiting, so it can be called from Python;
the console script ``unotable`` (pyproject.toml) wraps it with :func:`sys.exit`.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unotable import __version__
from unotable.errors import RecordError, UnoError
from unotable.record import Record
from unotable.rules import PRESET_NAMES
from unotable.tui.driver import BOT_LEVELS, BotError
from unotable.tui.play import DEFAULT_DELAY, PlayConfig, SetupError, run_play
from unotable.tui.records import find_record, record_lines
from unotable.tui.render import Style, use_color
from unotable.tui.replay import Viewer, run_replay

__all__ = ["build_parser", "main"]

_EPILOG = """\
examples:
  unotable play                               you against 3 heuristic bots, official rules
  unotable play --preset house --seats 3 --bots random,heuristic
  unotable play --option stacking=same_kind --option uno_penalty=4 --seed 7
  unotable simulate --help                    bot-vs-bot matches
  unotable review unotable-7.json --seat 0    where seat 0's decisions lost win chance
  unotable replay --list                      the records of your matches
  unotable replay unotable-7.json --seat 0    a saved game, as seat 0 saw it
  unotable serve --port 8000                  online tables (open the address it prints)
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unotable",
        description="A rules-exact UNO engine: play in the terminal, run bot matches, replay records.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"unotable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play UNO against bots in the terminal. Type help at the prompt for the commands.",
    )
    play.add_argument("--preset", default="official", metavar="NAME",
                      help=f"rules preset (default official): {', '.join(PRESET_NAMES)}")
    play.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                      help="a house option on top of the preset, repeatable: stacking=same_kind, "
                           "jump_in=true, uno_penalty=4, target_score=200 (docs/rules.md §1.4)")
    play.add_argument("--seats", type=int, metavar="N",
                      help="number of seats, you included (default 4, or what the preset allows)")
    play.add_argument("--bots", default="heuristic", metavar="LEVEL[,LEVEL...]",
                      help=f"bot level for every bot, or one per bot seat in order: {', '.join(BOT_LEVELS)} "
                           "(default heuristic)")
    play.add_argument("--seed", type=int,
                      help="seed of the match (default: a random one, shown at the start)")
    play.add_argument("--name", default="You", help="your name at the table (default You)")
    play.add_argument("--seat", type=int, default=0, metavar="N", help="your seat (default 0)")
    play.add_argument("--no-color", action="store_true",
                      help="no ANSI colors (also: NO_COLOR set, or output not a terminal)")
    play.add_argument("--save", metavar="PATH",
                      help="also write the match record to PATH at the end (every record is kept in "
                           "the data directory: unotable replay --list)")
    play.add_argument("--verbose", "-v", action="store_true",
                      help="with each refused action, also print the engine's precise text")
    pace = play.add_mutually_exclusive_group()
    pace.add_argument("--delay", type=_delay, default=DEFAULT_DELAY, metavar="SECONDS",
                      help=f"pause after each bot action, to follow the table (default {DEFAULT_DELAY})")
    pace.add_argument("--fast", dest="delay", action="store_const", const=0.0,
                      help="no pause after bot actions (the same as --delay 0)")

    sub.add_parser("simulate", help="bot-vs-bot matches (see unotable simulate --help)", add_help=False)
    sub.add_parser("review", help="judge one seat's decisions in a record (see unotable review --help)",
                   add_help=False)
    sub.add_parser("serve", help="serve online tables (see unotable serve --help; the server extra)",
                   add_help=False)
    sub.add_parser("join", help="play an online table from the terminal (see unotable join --help)",
                   add_help=False)

    rep = sub.add_parser(
        "replay",
        help="print a recorded game turn by turn",
        description="Replay a game record (as saved by unotable play) turn by turn.",
    )
    rep.add_argument("record", metavar="RECORD.json", nargs="?",
                     help="the record file ('-' for standard input), or the name of a kept record "
                          "(see --list)")
    rep.add_argument("--list", action="store_true",
                     help="list the records of your matches, kept in the data directory")
    who = rep.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, metavar="N",
                     help="show what seat N saw (its own cards and the public table)")
    who.add_argument("--full", action="store_true", help="show everything, every hand included (the default)")
    who.add_argument("--public", action="store_true", help="show what a spectator saw")
    rep.add_argument("--step", action="store_true",
                     help="wait for Enter after each action (c: the rest without pauses, q: quit)")
    rep.add_argument("--no-color", action="store_true", help="no ANSI colors")
    ver = sub.add_parser(
        "verify",
        help="check an online match's record: its seed commitment and every deal",
        description="Check the record of an online match (GET /t/TABLE/record): the revealed seed "
                    "and salt give the commitment published when the match started, and every deal "
                    "and action replays from that seed to the recorded final position.",
    )
    ver.add_argument("record", metavar="RECORD.json|URL",
                     help="the record file ('-' for standard input), or the address of the table, "
                          "its verify page or its record (http://HOST/t/TABLE), to download it")
    return parser


def _delay(text: str) -> float:
    """``--delay SECONDS``: a number of seconds, 0 or more (argparse turns the error into a usage message)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 60 or value != value:
        raise argparse.ArgumentTypeError(f"{text!r} is not a delay from 0 to 60 seconds")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``unotable`` command with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "simulate":
        return _simulate(args_list[1:])
    if args_list and args_list[0] == "review":
        from unotable.bots.review import main as review_main

        return review_main(args_list[1:], find=find_record)
    if args_list and args_list[0] in ("serve", "join"):
        return _online(args_list[0], args_list[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed them
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "verify":
            return _verify(args.record)
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    parser.print_help()
    return 2


def _online(command: str, argv: list[str]) -> int:
    """``unotable serve`` and ``unotable join``: the online tables, which need the server extra."""
    module = "unotable.server.run" if command == "serve" else "unotable.tui.online"
    try:
        online: Any = importlib.import_module(module)
    except ImportError as exc:
        print(f"unotable {command} needs the server extra: pip install 'unotable[server]' ({exc})",
              file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"unotable {command}")
    if command == "serve":
        online.add_arguments(parser)
        run = online.run_from_args
    else:
        online.add_join_arguments(parser)
        run = online.run_join_from_args
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        return int(run(args))
    except KeyboardInterrupt:
        return 130
    except (OSError, ValueError) as exc:
        print(f"unotable {command}: {exc}", file=sys.stderr)
        return 1


def _simulate(argv: list[str]) -> int:
    try:
        arena: Any = importlib.import_module("unotable.bots.arena")
    except ImportError as exc:
        print(f"unotable simulate: the bots are not available: {exc}", file=sys.stderr)
        return 1
    status: int = arena.main(argv)
    return status


def _line_editing() -> None:
    """On a terminal, import the standard :mod:`readline`: ``input()`` then gets line editing
    (arrows, Ctrl-A/E, Ctrl-R) and the history of the session's lines (Up, Down)."""
    if not sys.stdin.isatty():
        return
    with contextlib.suppress(ImportError):  # Python built without it (as on Windows): a plain prompt
        import readline  # noqa: F401  (importing it is what turns it on)


def _play(args: argparse.Namespace) -> int:
    config = PlayConfig(
        preset=args.preset,
        options=args.option,
        seats=args.seats,
        bots=[b.strip() for b in args.bots.split(",") if b.strip()] or ["heuristic"],
        seed=args.seed,
        name=args.name,
        human=args.seat,
        color=use_color(sys.stdout, args.no_color),
        save=args.save,
        delay=args.delay,
        verbose=args.verbose,
    )
    if args.seed is not None and args.seed < 0:
        return _fail("play", "a seed is a non-negative integer")
    _line_editing()
    try:
        return run_play(config)
    except (UnoError, SetupError) as exc:
        return _fail("play", str(exc))
    except BotError as exc:
        return _fail("play", f"a bot broke the rules of the protocol: {exc}", status=1)


def _replay(args: argparse.Namespace) -> int:
    if args.list:
        for line in record_lines():
            print(line)
        return 0
    if args.record is None:
        return _fail("replay", "give a record file, or --list to list your kept records")
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            text = find_record(args.record).read_text(encoding="utf-8")
    except OSError as exc:
        return _fail("replay", f"cannot read {args.record}: {exc.strerror or exc}", status=1)
    viewer: Viewer = "full"
    if args.seat is not None:
        viewer = args.seat
    elif args.public:
        viewer = "public"
    style = Style(use_color(sys.stdout, args.no_color))

    def write(line: str) -> None:
        print(line, flush=True)

    try:
        record = Record.from_json(text)
        return run_replay(record, style, viewer, write, input if args.step else None)
    except RecordError as exc:
        return _fail("replay", f"{args.record}: {exc}", status=1)
    except KeyboardInterrupt:
        print("\nInterrupted.")
        return 130


def _verify(path: str) -> int:
    from unotable.verify import VerifyError, verify_text

    try:
        if path.startswith(("http://", "https://")):
            text = _download(path)
        else:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except VerifyError as exc:
        return _fail("verify", str(exc), status=1)
    except (OSError, UnicodeDecodeError) as exc:
        return _fail("verify", f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}", status=1)
    try:
        print(verify_text(text).summary())
    except VerifyError as exc:
        return _fail("verify", f"{path}: {exc}", status=1)
    return 0


def _download(url: str) -> str:
    """The record of the match at ``url`` (a table's link, its verify page or its record)."""
    import urllib.error
    import urllib.request

    from unotable.verify import VerifyError, record_url

    address = record_url(url)
    try:
        with urllib.request.urlopen(address, timeout=30) as answer:
            data: bytes = answer.read(64 * 1024 * 1024)
    except urllib.error.HTTPError as exc:
        why = exc.read(4096).decode("utf-8", "replace")
        with contextlib.suppress(ValueError, AttributeError):
            why = json.loads(why)["message"]
        raise VerifyError(f"{address}: HTTP {exc.code}: {why}") from None
    except (urllib.error.URLError, TimeoutError) as exc:
        raise VerifyError(f"cannot download {address}: {getattr(exc, 'reason', exc)}") from None
    return data.decode("utf-8")


def _fail(command: str, message: str, status: int = 2) -> int:
    print(f"unotable {command}: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
