"""The use cases both faces call (Anki's ``aqt/operations``): ``Workspace`` in
``workspace``, made of one class an area (``editing``, ``harvesting``, ``library``,
``duplicates``, ``books``, ``running``, ``rules``) over ``base``; ``demo`` serves the sample
site. The window imports this package and ``records``, nothing else of the pipeline's
workings.
"""
