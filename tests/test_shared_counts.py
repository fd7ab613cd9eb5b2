"""One count C is given for two lists, in every backend: OpenGL's glShaderSource(shader,
count, string, length) and hiredis's redisFormatCommandArgv(target, argc, argv, argvlen)."""
from __future__ import annotations

import pytest

from conftest import one_worker_each, small_library_module

from pegbind.config import FunctionRule, parse_role

pytestmark = pytest.mark.slow  # builds a module per backend

HEADER = """\
#include <stddef.h>

/* The total of lengths[i] for the n words, each checked against strlen(words[i]):
   -1 if one differs; lengths NULL: the words' own lengths, as glShaderSource's. */
long sc_joined(int n, const char **words, const size_t *lengths);
"""

SOURCE = """\
#include <string.h>
#include "sc.h"

long sc_joined(int n, const char **words, const size_t *lengths) {
    long total = 0;
    for (int i = 0; i < n; i++) {
        size_t length = lengths ? lengths[i] : strlen(words[i]);  /* NULL: NUL-terminated */
        if (strlen(words[i]) != length) return -1;
        total += (long)length;
    }
    return total;
}
"""


@pytest.fixture(scope="session", params=one_worker_each("shared_counts"))
def sc(request, tmp_path_factory):
    rules = (FunctionRule("sc_joined", {"words": parse_role("in-array(n)"), "lengths": parse_role("in-array(n)")}),)
    return small_library_module(tmp_path_factory.mktemp(f"sc-{request.param}"), "sc", HEADER, SOURCE,
                                request.param, rules)


def test_one_count_is_given_for_two_lists_of_as_many_items(sc):
    assert sc.sc_joined(["SET", "key", "value"], [3, 3, 5]) == 11
    assert sc.sc_joined([], []) == 0


def test_lists_of_different_lengths_are_refused_before_c_reads_past_one(sc):
    with pytest.raises(ValueError, match=r"^argument 2 \(lengths\) holds 2 items and argument 1 \(words\) 3: "
                                         r"C is given one count \(n\) for both$"):
        sc.sc_joined(["SET", "key", "value"], [3, 3])
    with pytest.raises(ValueError, match=r"holds 4 items and argument 1 \(words\) 3"):
        sc.sc_joined(["SET", "key", "value"], [3, 3, 5, 1])


def test_the_second_list_may_be_none_as_any_in_array(sc):
    # glShaderSource's length is NULL for NUL-terminated strings: None is NULL, not a list of 0 items
    assert sc.sc_joined(["SET", "key"], None) == 6
