"""site/plugin.py on_shutdown: a process that ran ``mkdocs build`` ends without its last full collection walking
what the build left (the interpreter's collection at exit took about 1 s after a first build of 0.58.3); a serving
process keeps collecting."""

from __future__ import annotations

import gc

from pto_docs.site.plugin import PtoDocsPlugin


def test_only_a_finished_build_takes_its_heap_out_of_the_last_collection():
    gc.unfreeze()
    try:
        junk = [[i] for i in range(1000)]  # (tracked objects the build would have left)
        for command in ("serve", None):
            plugin = PtoDocsPlugin()
            if command is not None:
                plugin.on_startup(command=command, dirty=False)
            plugin.on_shutdown()
            assert gc.get_freeze_count() == 0, command
        plugin = PtoDocsPlugin()
        plugin.on_startup(command="build", dirty=False)
        plugin.on_shutdown()
        assert gc.get_freeze_count() >= len(junk)
    finally:
        gc.unfreeze()
