"""A run: the scheduler (``runner``), the stages around the pure functions (``stages``,
``localize``), the retry queue (``schedule``), what the archive says was done
(``reconcile``) and the run report (``report``).
"""
