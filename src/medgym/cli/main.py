"""The single ``medgym`` command line.

Subcommands are discovered: every module in this package that defines
``add_parser(subparsers)`` contributes one. A :class:`~medgym.errors.MedgymError`
raised by a command becomes one line on stderr and exit code 2, so bad input never
produces a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import medgym.cli as cli_pkg
from medgym import __version__
from medgym.errors import MedgymError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="medgym", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"medgym {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(cli_pkg.__path__), key=lambda m: m.name):
        if info.name == "main":
            continue
        module = importlib.import_module(f"medgym.cli.{info.name}")
        add = getattr(module, "add_parser", None)
        if callable(add):
            add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    try:
        return int(args.func(args) or 0)
    except MedgymError as exc:
        print(f"medgym: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("medgym: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
