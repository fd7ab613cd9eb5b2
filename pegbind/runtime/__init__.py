"""Runtime support: Python source that generated modules carry as text.

The ctypes and cffi modules pegbind generates must run without pegbind, so
what they share is not imported from here: each module here is ordinary,
linted, type-checked and unit-tested Python, and the emitter pastes its marked
sections into the generated module (:func:`pegbind.resources.runtime_sections`
reads them; the Jinja environment offers them to the templates).
"""
