"""Packaging glue that pyproject.toml cannot express on its own.

The grammars and templates live in top-level folders so that they read as
first-class parts of the project; here they are mapped into the wheel as the
data packages ``pegbind.grammars`` and ``pegbind.templates``.
``pegbind/resources.py`` finds them in either place.  The runtime sources that
generated modules carry (``pegbind/runtime``) are an ordinary package.
"""
from setuptools import find_packages, setup

setup(
    # every package under pegbind/ (a new one cannot be forgotten), then the two data packages
    packages=[*find_packages(include=["pegbind", "pegbind.*"]), "pegbind.grammars", "pegbind.templates"],
    package_dir={
        "pegbind": "pegbind",
        "pegbind.grammars": "grammars",
        "pegbind.templates": "templates",
    },
    package_data={
        "pegbind": ["include/*.h", "fallback-include/*.h", "fallback-include/*/*.h", "data/compilers/*.json"],
        "pegbind.grammars": ["*.ppeg"],
        "pegbind.templates": ["*/*.jinja"],
    },
    include_package_data=False,
)
