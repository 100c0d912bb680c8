"""`mkdocs serve` on Linux: the paths the plugin watches go to inotify (site/watcher.py), whose notices arrive at
once; reading a file asks for no rebuild; a path the kernel refuses is polled as before. The server is MkDocs'
own LiveReloadServer, never started: its polling observer does not run, so only the inotify watch can see a save.
Waits are bounded; no timing is asserted."""

from __future__ import annotations

import sys
import time

import pytest

from pto_docs.site import watcher
from pto_docs.site.watcher import SplitObserver, filesystem_type, watch_natively

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@pytest.fixture
def server(tmp_path):
    from mkdocs.livereload import LiveReloadServer
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))
    yield server
    server.observer.stop()
    if server.observer.is_alive():
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
    polling, native = _Observer(), _Observer(refuse=True)  # (/ is local here: tests run on a local disk)
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


def _clear(server) -> None:
    with server._rebuild_cond:
        server._want_rebuild = False


def test_a_directory_moved_out_or_recreated_and_a_git_change_are_what_they_are(tmp_path, server):
    """inotify reports a directory moved out of the tree as that directory alone (no file of it): it asks for a
    rebuild; a top-level directory removed and made again is watched again (the tree is one recursive watch);
    what happens under ``.git`` asks for nothing."""
    tree = tmp_path / "tree"
    (tree / "asl" / "agu").mkdir(parents=True)
    (tree / "asl" / "agu" / "SWI.asl").write_text("// swi\n", "utf-8")
    (tree / "spec").mkdir()
    (tree / ".git" / "objects").mkdir(parents=True)
    assert watch_natively(server)
    server.watch(str(tree))
    assert watcher.watched_natively(server, str(tree))
    (tree / ".git" / "index").write_text("index", "utf-8")
    (tree / ".git" / "objects" / "ab").mkdir()
    (tree / ".git" / "objects" / "ab" / "cd").write_text("object", "utf-8")
    time.sleep(1.0)
    assert not _asked(server), "a change under .git asked for a rebuild"
    (tree / "asl" / "agu").rename(tmp_path / "agu-elsewhere")
    assert _wait_until_asked(server), "a directory moved out of the tree was not seen"
    _clear(server)
    import shutil
    shutil.rmtree(tree / "spec")
    assert _wait_until_asked(server), "a removed directory was not seen"
    _clear(server)
    (tree / "spec").mkdir()
    time.sleep(0.5)  # (the new directory's watch is added when its creation is read)
    _clear(server)
    (tree / "spec" / "clauses.ndf").write_text("again\n", "utf-8")
    assert _wait_until_asked(server), "a file in a top-level directory made again was not seen"


MOUNTINFO = """27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
40 27 0:50 / /srv/specs rw,relatime - nfs4 server:/specs rw
41 40 0:51 / /srv/specs/local\\040copy rw,relatime - ext4 /dev/vdb rw
42 27 0:52 / /mnt/c rw,relatime - 9p drvfs rw
"""


def test_the_filesystem_of_a_path_is_that_of_its_longest_mount_point(tmp_path):
    info = tmp_path / "mountinfo"
    info.write_text(MOUNTINFO, "utf-8")
    kind = lambda p: filesystem_type(p, str(info))  # noqa: E731
    assert kind("/home/author/pto-spec") == "ext4"
    assert kind("/srv/specs/pto-spec") == "nfs4"
    assert kind("/srv/specs/local copy/pto-spec") == "ext4"  # (a space in a mount point is written \\040)
    assert kind("/srv/specsX") == "ext4"  # (not under /srv/specs)
    assert kind("/mnt/c/Users/spec") == "9p"
    assert filesystem_type("/x", str(tmp_path / "missing")) is None


def test_a_tree_on_a_network_or_virtual_filesystem_is_polled(tmp_path, server, monkeypatch):
    """There the kernel accepts a watch but never hears of a change made on the other side: polled as before."""
    monkeypatch.setattr(watcher, "filesystem_type", lambda path, *a: "nfs4")
    (tmp_path / "tree").mkdir()
    assert watch_natively(server)
    server.watch(str(tmp_path / "tree"))
    assert server.observer.refused and not watcher.watched_natively(server, str(tmp_path / "tree"))
    assert set(server.observer.owner.values()) == {server.observer.polling}


def test_polling_can_be_asked_for(server, monkeypatch):
    monkeypatch.setenv("PTO_DOCS_SERVE_POLL", "1")
    assert not watch_natively(server) and not isinstance(server.observer, SplitObserver)


def test_the_plugin_watches_the_tree_as_one_inotify_watch_or_polls_it_without_git(tmp_path, monkeypatch):
    """plugin.on_serve: through inotify, the root recursively (its .git notices left out by the handler); where
    the root is polled (here: a network filesystem), the root without recursion and each top-level directory
    but .git, as before."""
    import shutil

    from mkdocs.config import load_config
    from mkdocs.livereload import LiveReloadServer

    from tests.conftest import REPO
    from tests.mkdocs_config import config_copy
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "catalog", tree)
    (tree / ".git" / "objects").mkdir(parents=True)

    def served(fs: str | None) -> dict[str, bool]:
        if fs:
            monkeypatch.setattr(watcher, "filesystem_type", lambda path, *a: fs)
        (tmp_path / f"c-{fs}").mkdir()
        config = load_config(config_file=str(config_copy(tmp_path / f"c-{fs}", tree, cache_dir=tmp_path / "cache")))
        server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))
        try:
            config.plugins["pto-docs"].on_serve(server, config=config, builder=None)
            return {path: watcher.watched_natively(server, path) for path in server._watched_paths}
        finally:
            server.observer.stop()
            if server.observer.is_alive():
                server.observer.join(10)
            server.server_close()

    native = served(None)
    assert native[str(tree)] is True and not [p for p in native if p.startswith(str(tree) + "/")]
    polled = served("nfs4")
    assert polled[str(tree)] is False
    assert {str(tree / name) for name in ("asl", "spec", "tests")} <= set(polled)
    assert not [p for p in polled if "/.git" in p] and not any(polled.values())
