"""The helper process of a renderer's preparation: a forked process makes the costly parts of about half of the
instruction models (render/instruction.py costly_parts) and the HTML of the ADR bodies while this one builds the
other models; it hands them back as the task's result, so the two cores share what was the longest stretch one
core ran alone. A helper that fails (or a platform without fork) only means this process makes those parts
itself: the pages are the same either way.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing

from ..model.catalog import Unit
from ..render.pages import SiteRenderer, helper_parts
from ..runtime.workers import pool_options

HELPER_SHARE = 0.55  # the helper makes only the costly parts; this process builds every model besides
HELPER_MIN = 16  # fewer instruction units than this: not worth a process
_LENDING: list = []  # the renderer whose units the helper forked from it reads (set only around the submit)


def helper_share(units: list[Unit]) -> list[Unit]:
    """The instruction units (of ``units``, in page order) whose costly parts a helper makes: the last
    ``HELPER_SHARE`` of them; none when fewer than ``HELPER_MIN``."""
    todo = [u for u in units if u.is_instruction]
    if len(todo) < HELPER_MIN:
        return []
    return todo[len(todo) - int(len(todo) * HELPER_SHARE):]


def prepare(renderer: SiteRenderer, helper: bool = False) -> None:
    """``renderer.prepare()``: every unit's page model and the compiled templates, before the languages fork;
    with ``helper`` (a first build on POSIX), on both cores."""
    if helper:
        renderer.adopt(*_costly_parts_in_helper(renderer))
    renderer.prepare()


def _helper_task(unit_ids: list[str]) -> tuple[dict, dict, dict]:
    return helper_parts(_LENDING[-1].data, unit_ids)


def _costly_parts_in_helper(renderer: SiteRenderer) -> tuple[dict, dict, dict]:
    """The costly parts of the last ``HELPER_SHARE`` of the instruction units still to model, made by a forked
    process while the caller goes on, and the HTML of the English ADR bodies; nothing when there is nothing worth
    it, or the helper fails (the caller then makes them itself: the pages are the same either way)."""
    given = helper_share([u for u in renderer.units if u.id not in renderer._models])
    if not given:
        return {}, {}, {}
    pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"), **pool_options())
    _LENDING.append(renderer)
    try:
        future = pool.submit(_helper_task, [u.id for u in given])  # (forked here, sharing the loaded catalog)
    finally:
        _LENDING.pop()
    mine = set(u.id for u in given)
    for unit in renderer.units:  # meanwhile: every other model
        if unit.id not in mine:
            renderer.model(unit)
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - a helper that failed costs time, never a page
        return {}, {}, {}
    finally:
        pool.shutdown(wait=True)
