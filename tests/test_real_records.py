"""Records of real Debian libraries, read and written as their users do, in every backend.

libyaml hands out events whose ``data`` member is a union of unnamed structs
(``yaml_event_t.data.scalar.value``); libxml2 a tree of ``xmlNode`` records
linked by pointers, their names ``xmlChar *`` text.  Each is built with nothing
but ``-l`` and ``pkg-config``'s ``-I`` (``pegbind build HEADER -l LIB -I DIR``),
in a fresh interpreter per backend, and must leave no field of the library's
records out.
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from test_real_libraries import built  # noqa: F401  (the fixture: one build per session, shared)

pytestmark = pytest.mark.slow

BACKENDS = ("cython", "cffi", "ctypes")

#: library -> Python that drives the module ``m`` and prints one line, and what it must print
SCENARIOS = {
    "yaml": (textwrap.dedent("""\
        parser = m.yaml_parser_t()
        assert m.yaml_parser_initialize(parser) == 1
        text = b"a: [1, two]\\nb: &x hello\\nc: *x\\n"
        m.yaml_parser_set_input_string(parser, text, len(text))
        seen = []
        while True:
            event = m.yaml_event_t()
            assert m.yaml_parser_parse(parser, event) == 1, parser.problem
            kind = event.type
            assert type(kind) is m.yaml_event_type_t
            if kind == m.YAML_SCALAR_EVENT:
                scalar = event.data.scalar
                assert type(scalar) is m.yaml_event_t_data_scalar and type(event.data) is m.yaml_event_t_data
                assert scalar.style is m.yaml_scalar_style_t.YAML_PLAIN_SCALAR_STYLE
                anchor = "&" + scalar.anchor.decode() if scalar.anchor else ""
                seen.append(scalar.value[:scalar.length].decode() + anchor)
            elif kind == m.YAML_ALIAS_EVENT:
                seen.append("*" + event.data.alias.anchor.decode())
            elif kind == m.YAML_SEQUENCE_START_EVENT:
                seen.append("[" if event.data.sequence_start.implicit else "?")
            repr(event)  # reads no text of the union's other members
            line = event.start_mark.line
            m.yaml_event_delete(event)
            if kind == m.YAML_STREAM_END_EVENT:
                break
        m.yaml_parser_delete(parser)
        print(" ".join(seen), line)"""),
        r"a \[ 1 two b hello&x c \*x 3"),
    "libxml2": (textwrap.dedent("""\
        data = b"<root><a/><b x='1'>text</b></root>"
        doc = m.xmlReadMemory(data, len(data), "x.xml", None, 0)
        root = m.xmlDocGetRootElement(doc)
        assert type(root) is m.xmlNode and root.name == b"root"
        assert root.type is m.xmlElementType.XML_ELEMENT_NODE and root.doc.URL == b"x.xml"
        names = []
        child = root.children
        while child is not None:
            names.append(child.name.decode())
            child = child.next
        b = root.children.next
        assert b.parent.name == b"root" and b.properties.name == b"x" and b.properties.children.content == b"1"
        assert b.children.content == b"text" and b.children.type is m.xmlElementType.XML_TEXT_NODE
        assert "children=<xmlNode at 0x" in repr(root)  # the tree is not walked
        del root, child, b
        m.xmlFreeDoc(doc)
        print(" ".join(names))"""),
        r"a b"),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_records_of_real_libraries_read_as_their_users_read_them(name, backend, built):  # noqa: F811
    # the same build as test_real_libraries' (the built fixture shares it across the session)
    module = built(name, backend)
    left_out = [line for line in module.stderr.splitlines() if "field" in line and "is not bound" in line]
    assert not left_out, left_out
    code, prints = SCENARIOS[name]
    script = f"import sys\nsys.path.insert(0, {str(module.folder)!r})\nimport {module.module} as m\n{code}\n"
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert re.fullmatch(prints, ran.stdout.strip()), ran.stdout
