"""The rules editor, one module per concern: ``window`` (``RulesEditor``, the window that
composes the rest and keeps the form and rules.yaml as one), ``form`` (a field for each key of
``pipeline.rules.model.RULE_SPECS``), ``text_edit`` and ``highlighter`` (rules.yaml as text),
``keys_help``, ``messages`` (rules errors in the interface's language), ``task_preview`` (the
live preview), ``domain_trial`` (Test on this domain), ``pick_content`` and ``rich_text``.
Import from those modules; this file holds nothing."""
