import pathlib
import sys

# test modules import helpers from their own folder (e.g. tests/engine/test_properties.py)
for sub in ("engine",):
    sys.path.insert(0, str(pathlib.Path(__file__).parent / sub))
