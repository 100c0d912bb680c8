"""Where pto-docs keeps what it may reuse, and how it writes: one owner for every cache.

- :mod:`.paths`: the user's cache directory (``$XDG_CACHE_HOME/pto-docs``, else ``~/.cache/pto-docs``) and, in it,
  one folder per spec tree (keyed by the digest of its resolved root), never under the tree;
- :mod:`.seal`: the per-user HMAC key and sealed entries (bytes and pickles): an entry is used only when its MAC,
  made with this user's key, verifies; a pickle is never unpickled before that;
- :mod:`.atomic`: writes that never follow a symlink pto-docs did not create (a temporary file made with
  ``O_EXCL | O_NOFOLLOW`` in the target's directory, renamed over the target).
"""

from .atomic import atomic_write, make_private_dir
from .paths import asl_cache_dir, tree_cache_dir, user_cache_root
from .seal import SealedFolder, Sealer, sealed_folder, user_sealer

__all__ = ["SealedFolder", "asl_cache_dir", "Sealer", "sealed_folder", "atomic_write", "make_private_dir", "tree_cache_dir", "user_cache_root", "user_sealer"]
