"""Each kind of decision judged once, and one writer of the words a player reads.

- :mod:`analysis.judge.chance`: the one seam through which every judgement asks the chance
  that a caller's side makes its contract.
- :mod:`analysis.judge.words`: every explanation, written from the annotations' figures, so
  that the notes of one step (and of one deal) tell one story.
- :mod:`analysis.judge.cards`: a card's hindsight loss confirmed (or not) on what its seat knew.
- :mod:`analysis.judge.others`: what the other seats call once a decision is made.
- :mod:`analysis.judge.playout`: deals played out by players who see only their own cards.
"""
