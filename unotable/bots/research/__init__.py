"""The bots' research harnesses: the code behind the measurements of docs/bots.md and docs/research/.

Each module is the body of a script of ``benchmarks/`` (``benchmarks/decisions.py`` runs
:func:`decisions.main`, and so on), kept in the package so that the tests import it like any other
module and its worker processes pickle its functions by name:

- :mod:`~unotable.bots.research.decisions`: decisions of ismcts judged from the true position, and
  variants of the search played on the arena's rounds;
- :mod:`~unotable.bots.research.hidden_info`: other samplers of the hidden hands in ismcts's
  place (an oracle, beliefs, play-reading samplers), their quality and fit rate;
- :mod:`~unotable.bots.research.fit_hands`: fits the hand model's weights to heuristic self-play
  (needs numpy: the ``bench`` or ``dev`` extra);
- :mod:`~unotable.bots.research.anchors`: our bots against chausner/UnoAI's published MixBot
  figures, under that project's rules;
- :mod:`~unotable.bots.research.native_playouts`: ismcts's playouts in Python and on the native
  core (needs the core), their cost and the strength they give;
- :mod:`~unotable.bots.research.train_learned`: collects self-play and fits the learned bot's
  value network (numpy to save, PyTorch to fit), and times its decisions.

They import the engine and the bots, never the other way round; nothing else in the package
imports them.
"""
