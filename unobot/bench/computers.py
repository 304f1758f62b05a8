"""``python -m unobot.bench computers``: what ``hard`` computer players cost the reactor.

A ``hard`` decision is ~200 ms of CPU. The bot's reactor thread serves every channel, so the
decision must not run on it; the question is where. This benchmark runs a reactor-like loop
(wait 1 ms in the OS with the GIL released, as ``select`` does, then ~0.2 ms of Python work, a
command's worth) while ``hard`` decisions are computed back to back: none, in a worker thread,
in a worker process. It prints the loop's extra latency per wake-up.

A thread holds the GIL for its whole decision except when the interpreter forces a switch
(every ``sys.getswitchinterval()``, 5 ms): each wake-up of the reactor then waits up to 5 ms,
and a command that wakes it several times (socket reads and writes) waits several times. A
process shares nothing; that is why :class:`unobot.core.computers.PoolDecider` uses one.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from random import Random

from unobot.ai import Observation, Observer
from unobot.core.computers import decide
from unobot.engine import Game, preset

__all__ = ["add_arguments", "run"]


def _observation() -> Observation:
    rules = preset("official")
    game, events = Game.deal(4, rules, Random(1))
    observer = Observer(game.current, 4, rules)
    observer.see(events)
    return observer.observe(game)


def _loop(seconds: float) -> list[float]:
    """Extra latency (ms) of each wake-up of a reactor-like loop."""
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        time.sleep(0.001)
        x = 0
        for i in range(2000):  # ~0.1-0.2 ms of interpreter work
            x += i
        out.append((time.perf_counter() - start - 0.001) * 1000)
    return sorted(out)


def _measure(executor: Executor | None, seconds: float, budget_ms: float) -> str:
    obs = _observation()
    stop = threading.Event()
    decisions = [0]
    feeder = None
    if executor is not None:
        executor.submit(decide, "hard", 0, obs, 5.0, None).result()  # start the worker

        def feed() -> None:
            while not stop.is_set():
                executor.submit(decide, "hard", decisions[0], obs, budget_ms, None).result()
                decisions[0] += 1

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
    lat = _loop(seconds)
    stop.set()
    if feeder is not None:
        feeder.join()
    p99 = lat[int(len(lat) * 0.99)]
    return (
        f"median {statistics.median(lat):5.2f} ms  p99 {p99:5.2f} ms  max {lat[-1]:5.1f} ms  "
        f"({decisions[0]} decisions)"
    )


def run(args: argparse.Namespace) -> None:
    seconds, budget = args.seconds, args.budget_ms
    print(f"reactor-like loop, extra latency per wake-up, hard at {budget:g} ms a decision")
    print(f"no decisions:      {_measure(None, seconds, budget)}")
    with ThreadPoolExecutor(1) as threads:
        print(f"hard in a thread:  {_measure(threads, seconds, budget)}")
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as processes:
        print(f"hard in a process: {_measure(processes, seconds, budget)}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--budget-ms", type=float, default=200.0, help="hard's time a move")
    parser.set_defaults(run=run)
