"""rules.yaml: each key declared once with its spec (``model``), the file read within limits
(``yaml_file``), its text edited keeping comments (``text_edit``), the one CSS-selector reader
(``selectors``) and what the rules editor reads of the extractor (``findings``).
"""
