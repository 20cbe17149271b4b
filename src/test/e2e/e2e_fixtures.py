"""The e2e fixtures for the suites that reuse them (reliability, vm): one definition, loaded from e2e/conftest.py.

A suite's conftest.py puts src/test/e2e on sys.path and calls export_e2e_fixtures(globals(), NAME); pytest then
finds the fixtures in that conftest as if they were written there.
"""
import importlib.util
from pathlib import Path

# the fixtures e2e/conftest.py defines (_session_cleanup is autouse: it stops what the session left running), and its
# hook that scales each test's pytest-timeout limit with the machine's load
FIXTURES = ("emulator", "_session_cleanup", "ossgw_built", "workdir", "mounts", "new_bucket",
            "pytest_runtest_protocol")


def export_e2e_fixtures(namespace, module_name):
    """Loads e2e/conftest.py as the module `module_name` (one name per suite, so each suite gets its own fixture
    functions) and puts its FIXTURES into `namespace` (a conftest's globals()). Returns the loaded module."""
    spec = importlib.util.spec_from_file_location(module_name, Path(__file__).with_name("conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    namespace.update({name: getattr(module, name) for name in FIXTURES})
    return module
