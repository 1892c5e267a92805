"""A SimPy model of the lab's pipeline (ARCHITECTURE §2), for `npm run bench` (bench/simpy.ts).

A tandem of stages with fixed service times, saturated admission (the first stage always has a
query) and blocking after service through buffers of `capacity` queries between stages: the
same queueing model as src/worlds/pipeline/engine/simulation.ts. Prints, as JSON, the simulated time
of the last completion and the wall time of the simulation alone (interpreter start-up excluded).
Runs under SimPy 3 or 4 (`import simpy`) or SimPy 2 (Debian's python3-simpy: `SimPy.Simulation`).

Usage: python3 simpyPipeline.py QUERIES CAPACITY T1 T2 ... (ms)
"""
import json
import sys
import time


def run_simpy3(simpy, times, queries, capacity):
    env = simpy.Environment()
    k = len(times)
    buffers = [simpy.Store(env, capacity=capacity) for _ in range(k - 1)]
    last = [0.0]

    def stage(i):
        for q in range(queries):
            if i > 0:
                yield buffers[i - 1].get()
            yield env.timeout(times[i])
            if i < k - 1:
                yield buffers[i].put(q)
            else:
                last[0] = env.now

    for i in range(k):
        env.process(stage(i))
    env.run()
    return last[0]


def run_simpy2(sim, times, queries, capacity):
    k = len(times)
    last = [0.0]

    class Stage(sim.Process):
        def work(self, i, buffers):
            for q in range(queries):
                if i > 0:
                    yield sim.get, self, buffers[i - 1], 1
                yield sim.hold, self, times[i]
                if i < k - 1:
                    yield sim.put, self, buffers[i], [q]
                else:
                    last[0] = sim.now()

    sim.initialize()
    buffers = [sim.Store(capacity=capacity) for _ in range(k - 1)]
    for i in range(k):
        s = Stage()
        sim.activate(s, s.work(i, buffers))
    sim.simulate(until=1e18)
    return last[0]


def main():
    queries = int(sys.argv[1])
    capacity = int(sys.argv[2])
    times = [float(t) for t in sys.argv[3:]]
    try:
        import simpy

        version = "simpy " + getattr(simpy, "__version__", "3+")
        runner = lambda: run_simpy3(simpy, times, queries, capacity)
    except ImportError:
        import SimPy
        import SimPy.Simulation as sim

        version = "SimPy " + getattr(SimPy, "__version__", "2")
        runner = lambda: run_simpy2(sim, times, queries, capacity)
    t0 = time.perf_counter()
    last = runner()
    wall_ms = (time.perf_counter() - t0) * 1000
    print(json.dumps({"version": version, "python": sys.version.split()[0], "queries": queries, "lastCompletionMs": last, "wallMs": wall_ms}))


main()
