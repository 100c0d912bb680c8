"""`mkdocs serve` on Linux: the paths the plugin watches go to inotify (site/watcher.py), whose notices arrive at
once; reading a file asks for no rebuild; a path the kernel refuses is polled as before. The server is MkDocs'
own LiveReloadServer, never started: its polling observer does not run, so only the inotify watch can see a save.
Waits are bounded; no timing is asserted."""

from __future__ import annotations

import sys
import time

import pytest

from pto_docs.site.watcher import SplitObserver, watch_natively

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@pytest.fixture
def server(tmp_path):
    from mkdocs.livereload import LiveReloadServer
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))
    yield server
    server.observer.stop()
    server.observer.join(10)
    server.server_close()


def _asked(server) -> bool:
    with server._rebuild_cond:
        return server._want_rebuild


def _wait_until_asked(server, limit: float = 20.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if _asked(server):
            return True
        time.sleep(0.05)
    return False


def test_a_save_under_a_watched_tree_asks_for_a_rebuild_and_a_read_does_not(tmp_path, server):
    tree = tmp_path / "tree"
    (tree / "asl" / "deep").mkdir(parents=True)
    unit = tree / "asl" / "deep" / "U.asl"
    unit.write_text("// one\n", "utf-8")
    assert watch_natively(server)
    server.watch(str(tree / "asl"))
    assert not server.observer.polling.is_alive()  # MkDocs' poller is not running: only inotify can see
    for _ in range(3):  # what a build does to the tree: read every file
        assert unit.read_text("utf-8") == "// one\n"
        assert [p.name for p in (tree / "asl" / "deep").iterdir()] == ["U.asl"]
    time.sleep(1.0)
    assert not _asked(server), "reading a file asked for a rebuild (it would rebuild after every rebuild)"
    with unit.open("a", encoding="utf-8") as fh:
        fh.write("// two\n")
    assert _wait_until_asked(server), "a save was not seen"
    with server._rebuild_cond:
        server._want_rebuild = False
    (tree / "asl" / "NEW.asl").write_text("// new\n", "utf-8")  # a new file, and one in a new directory
    assert _wait_until_asked(server), "a new file was not seen"
    with server._rebuild_cond:
        server._want_rebuild = False
    (tree / "asl" / "later").mkdir()
    time.sleep(0.5)  # the watch of the new directory is added when its creation is read
    (tree / "asl" / "later" / "L.asl").write_text("// later\n", "utf-8")
    assert _wait_until_asked(server), "a file in a directory made while serving was not seen"


def test_the_paths_mkdocs_watched_before_stay_with_its_poller_and_start_with_the_server(tmp_path, server):
    (tmp_path / "docs").mkdir()
    server.watch(str(tmp_path / "docs"))  # as MkDocs' serve does before on_serve
    polling = server.observer
    assert watch_natively(server) and server.observer.polling is polling
    assert watch_natively(server)  # a second call keeps the one split observer
    (tmp_path / "tree").mkdir()
    server.watch(str(tmp_path / "tree"))
    owners = set(server.observer.owner.values())
    assert owners == {server.observer.native}
    server.observer.start()
    assert polling.is_alive() and server.observer.is_alive()


class _Observer:
    def __init__(self, refuse: bool = False):
        self.refuse = refuse
        self.watches: list[tuple] = []

    def schedule(self, handler, path, *, recursive=False, event_filter=None):
        if self.refuse:
            raise OSError(28, "inotify watch limit reached")
        self.watches.append((path, recursive))
        return ("watch", path)

    def unschedule(self, watch):
        self.watches = [w for w in self.watches if ("watch", w[0]) != watch]


def test_a_path_the_kernel_refuses_is_polled_and_so_is_every_later_one():
    polling, native = _Observer(), _Observer(refuse=True)
    split = SplitObserver(polling, native)
    first = split.schedule(None, "/tree/asl", recursive=True)
    split.schedule(None, "/tree/spec", recursive=True)
    assert split.refused and polling.watches == [("/tree/asl", True), ("/tree/spec", True)]
    split.unschedule(first)
    assert polling.watches == [("/tree/spec", True)]


def test_a_server_without_an_observer_of_its_own_is_left_alone():
    class Server:
        observer = None

    server = Server()
    assert not watch_natively(server) and server.observer is None
