"""The run's work queue: due tasks first, later ones wait in the queue, not in a worker."""

from __future__ import annotations

import threading

from pipeline.run.schedule import WorkQueue
from tests.waiting import PATIENCE


def test_a_task_put_back_waits_while_others_are_taken() -> None:
    now = [0.0]
    queue = WorkQueue([1, 2, 3], clock=lambda: now[0])
    stop = threading.Event()
    assert queue.take(stop) == 1
    queue.put(1, wait=5.0)  # a retry, due in five seconds
    queue.done()
    assert [queue.take(stop), queue.take(stop)] == [2, 3]
    queue.done()
    queue.done()
    now[0] = 5.0
    assert queue.take(stop) == 1
    queue.done()
    assert queue.take(stop) is None  # nothing queued, nobody working: the run is over


def test_a_waiting_worker_stays_while_another_may_put_work_back() -> None:
    queue = WorkQueue([7])
    stop = threading.Event()
    assert queue.take(stop) == 7
    taken: list[int | None] = []
    waiter = threading.Thread(target=lambda: taken.append(queue.take(stop)))
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive()  # task 7 may still come back
    queue.put(7, wait=0.1)
    queue.done()
    waiter.join(PATIENCE)
    assert taken == [7]


def test_stop_ends_every_wait() -> None:
    queue = WorkQueue([])
    queue.put(1, wait=60)
    stop = threading.Event()
    stop.set()
    assert queue.take(stop) is None
    assert queue.leftover() == [1]
