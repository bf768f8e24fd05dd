import pytest

from envsuite.families.swe.junit import JUnitError, parse_junit

XML = b"""<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="6">
<testcase classname="tests.test_lru.LRUTest" name="test_size" file="tests/__init__.py"/>
<testcase classname="tests.test_lru.LRUTest" name="test_get">
  <failure message="AssertionError: assert 1 == 2">trace</failure></testcase>
<testcase classname="tests.test_lru.LRUTest" name="test_get"><error message="teardown"/></testcase>
<testcase classname="test_inflection" name="test_x[a-b]" file="test_inflection.py"/>
<testcase classname="test_inflection" name="test_skip"><skipped message="no"/></testcase>
<testcase classname="pkg.tests.test_a" name="test_b"/>
</testsuite></testsuites>"""


def test_node_ids_statuses_and_messages():
    files = ["tests/test_lru.py", "test_inflection.py", "pkg/tests/test_a.py"]
    outcomes = parse_junit(XML, files)
    assert outcomes["tests/test_lru.py::LRUTest::test_size"].status == "passed"
    get = outcomes["tests/test_lru.py::LRUTest::test_get"]
    assert get.status == "error"  # the worst of its two entries
    assert outcomes["test_inflection.py::test_x[a-b]"].status == "passed"
    assert outcomes["test_inflection.py::test_skip"].status == "skipped"
    assert outcomes["pkg/tests/test_a.py::test_b"].status == "passed"


def test_broken_xml_is_an_error():
    with pytest.raises(JUnitError):
        parse_junit(b"<testsuite><testcase", [])
