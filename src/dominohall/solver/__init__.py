"""Exact solvers for single-hand questions (standard library only).

>>> from dominohall.solver import longest_train
>>> longest_train(["5-12", "5-5", "3-5", "9-9"], 12)
['12-5', '5-5', '5-3']
"""

from .chains import OBJECTIVES, longest_train, longest_train_ids

__all__ = ["OBJECTIVES", "longest_train", "longest_train_ids"]
