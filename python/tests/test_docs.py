"""Every function the package shows to Python has a docstring."""

import inspect

import pytest

import rbg


def public_callables():
    """``(name, object)`` of the package's functions and classes and of the
    methods and properties the classes define (not inherited ones)."""
    classes = [getattr(rbg, n) for n in rbg.__all__ if inspect.isclass(getattr(rbg, n))]
    for module in ("pettingzoo_env", "gymnasium_env"):
        try:
            m = __import__(f"rbg.{module}", fromlist=["_"])
        except ImportError:
            continue
        classes += [c for _, c in inspect.getmembers(m, inspect.isclass) if c.__module__ == m.__name__]
    for n in rbg.__all__:
        obj = getattr(rbg, n)
        if callable(obj):
            yield n, obj
    for c in classes:
        for attr, v in vars(c).items():
            if attr in ("__new__", "__init_subclass__", "__subclasshook__") or attr.startswith("__pyx"):
                continue
            if callable(v) or isinstance(v, property) or inspect.isgetsetdescriptor(v):
                yield f"{c.__name__}.{attr}", v


def test_every_public_callable_has_a_docstring():
    """No function, method or property without a docstring."""
    missing = [name for name, obj in public_callables() if not (obj.__doc__ or "").strip()]
    assert not missing, missing


def test_examples_have_docstrings():
    """The examples' modules and functions are documented too."""
    from conftest import REPO

    import ast

    for path in sorted((REPO / "examples").glob("*.py")):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), path.name
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                assert ast.get_docstring(node), f"{path.name}: {node.name}"


@pytest.mark.parametrize("name", ["load_game", "mcts", "VecEnv", "State", "Game"])
def test_main_entries_are_documented_at_length(name):
    """The entry points explain themselves (more than a few words)."""
    assert len(getattr(rbg, name).__doc__) > 40
