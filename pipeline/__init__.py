"""Kuaibu's pipeline: fetch → decode → extract → localize → bind, with no Qt anywhere."""
