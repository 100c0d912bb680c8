"""Release history: what changed between two releases of a spec tree (diff.py), and loading a release from a
tree or a git revision (release.py)."""
