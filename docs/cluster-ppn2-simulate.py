#!/usr/bin/env python3
"""A discrete-event SIMULATION of job-level parallel PN² with many clients, fed by the
times measured in real distributed runs (`arbor solve breakthrough --algo ppn2
--distributed --job-times FILE`). It estimates what the paper's Tables 3-4 (solving time
and speedup against the number of clients) would look like with 8 to 64 clients, which
this 2-core machine cannot run. It is a model, not a measurement:

- the run needs a fixed number of jobs (the main-tree expansions of a measured run; more
  clients also add search overhead, which this model leaves out: see --overhead);
- a job's time on its client is drawn from the measured job times;
- during a job the client sends partial results evenly (the measured partials per job);
- the server is one FIFO queue: each partial result costs it the measured mean time per
  partial, each final result the measured mean per final (taking the result, choosing the
  next most-proving leaf, sending the job);
- a message takes the measured one-way latency to arrive.

Usage: cluster-ppn2-simulate.py TIMES.csv JOBS PARTIALS_PER_JOB [--overhead X] [--latency US]
  TIMES.csv         the --job-times file of one run (kind,micros lines)
  JOBS              jobs to run (the measured run's main-tree expansions)
  PARTIALS_PER_JOB  partial results per job (partial results / final results of that run)
  --overhead X      extra jobs per additional client, as a fraction (default 0)
  --latency US      one-way message latency in µs instead of the measured one (a cluster's
                    network with a blocking receive: a few µs)
"""
import heapq
import random
import statistics
import sys


def read_times(path):
    kinds = {}
    with open(path) as f:
        next(f)
        for line in f:
            kind, micros = line.strip().split(",")
            kinds.setdefault(kind, []).append(int(micros))
    return kinds


def simulate(clients, jobs, job_times, partials, partial_cost, final_cost, latency, seed=1):
    """Returns (wall time in µs, server busy fraction)."""
    rng = random.Random(seed)
    events = []  # (time, order, kind, client)
    order = 0

    def push(time, kind, client):
        nonlocal order
        order += 1
        heapq.heappush(events, (time, order, kind, client))

    server_free = 0.0
    server_busy = 0.0
    handed = 0
    finished = 0
    # The server hands a first job to every client.
    for client in range(clients):
        if handed < jobs:
            server_free += final_cost
            server_busy += final_cost
            handed += 1
            push(server_free + latency, "start", client)
    now = 0.0
    while events:
        now, _, kind, client = heapq.heappop(events)
        if kind == "start":
            duration = rng.choice(job_times)
            whole = int(partials)
            count = whole + (1 if rng.random() < partials - whole else 0)
            for i in range(1, count + 1):
                push(now + duration * i / (count + 1) + latency, "partial", client)
            push(now + duration + latency, "final", client)
        elif kind == "partial":
            server_free = max(server_free, now) + partial_cost
            server_busy += partial_cost
        else:
            server_free = max(server_free, now) + final_cost
            server_busy += final_cost
            finished += 1
            if handed < jobs:
                handed += 1
                push(server_free + latency, "start", client)
            elif finished == jobs:
                return server_free, server_busy / server_free
    return now, server_busy / max(now, 1.0)


def main():
    args = sys.argv[1:]
    overhead = 0.0
    latency = None
    if "--overhead" in args:
        at = args.index("--overhead")
        overhead = float(args[at + 1])
        del args[at : at + 2]
    if "--latency" in args:
        at = args.index("--latency")
        latency = float(args[at + 1])
        del args[at : at + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    kinds = read_times(args[0])
    jobs = int(args[1])
    partials = float(args[2])
    job_times = kinds["job"]
    partial_cost = statistics.mean(kinds.get("partial", [0]))
    final_cost = statistics.mean(kinds.get("final", [0]))
    # One way: half of what a job's round trip adds to its time on the client.
    extra = [t - j for t, j in zip(kinds.get("turnaround", []), job_times)]
    if latency is None:
        latency = max(statistics.mean(extra) / 2, 0.0) if extra else 0.0
    print(f"model: {len(job_times)} measured job times, mean {statistics.mean(job_times)/1e3:.3f} ms, "
          f"median {statistics.median(job_times)/1e3:.3f} ms; server {partial_cost:.1f} µs per "
          f"partial, {final_cost:.1f} µs per final; latency {latency:.1f} µs; {partials:.2f} "
          f"partials per job; {jobs} jobs; overhead {overhead:.0%} per added client")
    per_job = final_cost + partials * partial_cost
    print(f"server-bound limit: about {statistics.mean(job_times) / per_job:.0f} busy clients "
          f"(mean job time / server time per job)")
    print("clients  time (s)  speedup  server busy")
    base = None
    for clients in [1, 2, 4, 8, 16, 32, 64]:
        run_jobs = int(jobs * (1 + overhead * (clients - 1)))
        wall, busy = simulate(clients, run_jobs, job_times, partials, partial_cost, final_cost, latency)
        base = base or wall
        print(f"{clients:7d}  {wall/1e6:8.2f}  {base/wall:7.2f}  {busy:10.0%}")


if __name__ == "__main__":
    main()
