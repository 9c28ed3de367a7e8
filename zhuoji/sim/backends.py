"""Where simulation work runs: this process, a local process pool, or a Ray cluster.

:func:`execute` maps a module-level function over a list of tasks and yields the results
**in task order** whatever order they finish in (a small reorder buffer), so the caller's
merge is deterministic and a run's results do not depend on the backend or worker count.

- ``local`` with one worker runs in this process (no pool, easiest to debug and profile);
- ``local`` with ``K > 1`` workers uses a :mod:`multiprocessing` pool, created before the
  call returns (so before any progress-bar thread exists).  Where ``fork`` is available and
  this process runs no other thread (tqdm's monitor aside), workers are forked: they start at once with zhuoji
  imported and the variant loaded (a spawned worker spends about a second on that, which
  shows in short runs).  With other threads running (a server, Ray) forking is unsafe, and
  the ``forkserver`` method is used instead, with :mod:`zhuoji.sim.runner` preloaded;
- ``ray`` submits each task as a Ray task (``num_cpus=1``) to the cluster at ``address``, or
  to a local Ray instance with ``workers`` CPUs when no address is given and Ray is not
  initialized yet (``ray.init`` is left alone when it is: tests start their own instance).
  See ``docs/scaling.md``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from zhuoji.errors import ZhuojiError

BACKENDS = ("local", "ray")

#: a Ray run fails when no task finishes for this long (a task is at most 32 matches)
RAY_STALL_S = 600.0

T = TypeVar("T")
R = TypeVar("R")


def available_cpus() -> int:
    """CPUs this process may run on (the affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def _call(job: tuple[int, Callable[[Any], Any], Any]) -> tuple[int, Any]:
    i, fn, task = job
    return i, fn(task)


def _in_order(results: Iterator[tuple[int, R]]) -> Iterator[R]:
    """Yield results by their index, holding back early finishers."""
    held: dict[int, R] = {}
    nxt = 0
    for i, res in results:
        held[i] = res
        while nxt in held:
            yield held.pop(nxt)
            nxt += 1


def execute(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    ship_code: bool = False,
) -> Iterator[R]:
    """``fn(task)`` for every task, yielded in task order.  ``fn`` must be a module-level
    function (it is sent to workers by reference)."""
    if backend == "local":
        if workers < 1:
            raise ZhuojiError(f"workers must be at least 1, not {workers}")
        if workers == 1 or len(tasks) <= 1:
            return (fn(t) for t in tasks)
        return _local_pool(fn, tasks, workers)
    if backend == "ray":
        return _ray(fn, tasks, workers, address, ship_code)
    raise ZhuojiError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")


def _other_threads() -> list[threading.Thread]:
    """Threads that make forking unsafe.  tqdm's monitor thread does not: it only wakes
    every few seconds to look at open bars, and a worker never touches tqdm."""
    return [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread() and t.name != "tqdm_monitor"
    ]


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform == "linux" and not _other_threads():
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["zhuoji.sim.runner"])
        return ctx
    return multiprocessing.get_context("spawn")  # pragma: no cover


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local_pool(fn: Callable[[T], R], tasks: Sequence[T], workers: int) -> Iterator[R]:
    # created now, not at the first next(); workers leave Ctrl-C to the parent, which
    # terminates them (no traceback from every worker)
    pool = _context().Pool(processes=min(workers, len(tasks)), initializer=_ignore_sigint)

    def results() -> Iterator[R]:
        try:
            jobs = [(i, fn, t) for i, t in enumerate(tasks)]
            yield from _in_order(pool.imap_unordered(_call, jobs))
            pool.close()
        finally:
            pool.terminate()
            pool.join()

    return results()


def _ray(
    fn: Callable[[T], R], tasks: Sequence[T], workers: int, address: str | None, ship_code: bool
) -> Iterator[R]:
    try:
        import ray
    except ModuleNotFoundError as exc:  # pragma: no cover - ray is an optional extra
        raise ZhuojiError("the ray backend needs Ray: pip install 'zhuoji[ray]'") from exc
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = max(1, workers)
        if ship_code:
            import zhuoji

            kwargs["runtime_env"] = {"py_modules": [zhuoji]}
        try:
            ray.init(**kwargs)
        except Exception as exc:  # no cluster at the address, no room to start one, …
            reason = (str(exc).strip().splitlines() or [""])[0] or type(exc).__name__
            where = f"the cluster at {address}" if address else "a local Ray instance"
            raise ZhuojiError(f"--backend ray: cannot start {where}: {reason}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1)(_call)
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call, unused-ignore]
        window = max(2, 4 * cpus)  # tasks in flight: bounds the driver's memory

        def finished() -> Iterator[tuple[int, Any]]:
            pending: list[Any] = []
            nxt = 0
            while nxt < len(tasks) or pending:
                while nxt < len(tasks) and len(pending) < window:
                    pending.append(remote.remote((nxt, fn, tasks[nxt])))
                    nxt += 1
                done, pending = ray.wait(pending, num_returns=1, timeout=RAY_STALL_S)
                if not done:
                    raise ZhuojiError(
                        f"no Ray task finished in {RAY_STALL_S:.0f} s: is the cluster short of "
                        "CPUs, or are the workers missing zhuoji (try --ray-ship-code)?"
                    )
                for ref in done:
                    yield ray.get(ref)

        yield from _in_order(finished())
    finally:
        if started:
            ray.shutdown()
