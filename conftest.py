"""pytest's ``--doctest-modules`` leaves out ``replay/deal.py``: its doctests run elsewhere.

The engine may be installed compiled by mypyc: pytest then cannot collect the source file as a
module ("import file mismatch") and the compiled module keeps no docstrings.
``tests/test_deal_doctests.py`` reads the docstrings from the source and runs them, once, against
the module actually imported, compiled or not.
"""

collect_ignore = ["replay/deal.py"]
