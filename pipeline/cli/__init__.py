"""The command line, a face over the use cases: ``main`` runs one command and turns every
failure into one line, ``parser`` is the grammar, ``commands`` one function a command
(printing only), ``progress`` the bar of the long ones.
"""
