"""URLs and addresses: the WHATWG URL parser (what a browser opens), links found in pasted
text and their canonical form, and the address policy that judges every host before it is
connected to.
"""
