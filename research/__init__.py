"""The bots' research harnesses: the code behind the measurements of docs/bots.md and docs/research/.

This package lives beside ``unotable``, not in it: it is not part of the product, so the wheel
leaves it out. Each module is a script run from the repository's root (``python -m
research.decisions --help``, and so on), kept as a package so that the tests import it like any
other module (``from research import decisions``; pytest puts the root on the path) and its worker
processes pickle its functions by name:

- :mod:`research.decisions`: decisions of ismcts judged from the true position, and variants of
  the search played on the arena's rounds;
- :mod:`research.hidden_info`: other samplers of the hidden hands in ismcts's place (an oracle,
  beliefs, play-reading samplers), their quality and fit rate;
- :mod:`research.fit_hands`: fits the hand model's weights to heuristic self-play (needs numpy:
  the ``bench`` or ``dev`` extra);
- :mod:`research.anchors`: our bots against chausner/UnoAI's published MixBot figures, under that
  project's rules;
- :mod:`research.native_playouts`: ismcts's playouts in Python and on the native core (needs the
  core), their cost and the strength they give;
- :mod:`research.train_learned`: collects self-play and fits the learned bot's value network
  (numpy to save, PyTorch to fit), and times its decisions.

They import the engine and the bots, never the other way round; nothing in ``unotable`` imports
them.
"""
