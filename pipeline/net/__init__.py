"""The network: one request with its limits and deadline (``fetch``), the per-host pace
(``politeness``), cookies, circuit breakers, and the browser path for pages their scripts
build (``render``). Every connection goes through ``fetch``, judged by the address policy.
"""
