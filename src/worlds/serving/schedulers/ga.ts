import type { Rng } from '../../../engine/rng';
import {
  BATCH_SIZES,
  INSTANCE_COUNTS,
  type ServingAction,
  type ServingObservation,
  type ServingScheduler,
} from '../engine/scheduler';

export interface GaParams {
  /** Individuals per generation. */
  readonly population: number;
  /** Slots whose utility makes an individual's fitness. */
  readonly evaluationSlots: number;
  /** Slots an individual runs first without being scored (the queues it inherits settle). */
  readonly warmupSlots: number;
  /** Probability that a model's gene mutates in a child. */
  readonly mutationRate: number;
  /** Best individuals copied unchanged into the next generation. */
  readonly elite: number;
}

/** One model's gene: indices into BATCH_SIZES and INSTANCE_COUNTS. */
interface Gene {
  readonly batch: number;
  readonly instances: number;
}

interface Individual {
  readonly genes: readonly Gene[];
  /** Per-model mean utility over the evaluation window (NaN: never scored). */
  fitness: Float64Array;
}

/** The GA scheduler, with what the teaching view shows. */
export interface GaScheduler extends ServingScheduler {
  /** Generations completed. */
  readonly generation: number;
  /** The best configuration found so far (per model, by its own utility). */
  readonly bestAction: ServingAction | null;
  /** Mean over models of the best individual's fitness so far. */
  readonly bestFitness: number;
}

/**
 * `ga`: an online genetic algorithm over every model's (b, m_c) (BCEdge §V-B2: "we take the
 * fitness function in GA as our proposed utility"). Online: each individual of a generation
 * is installed in turn for `warmupSlots + evaluationSlots` scheduling slots, and its fitness
 * is the utility (Eq. 3) measured in the last `evaluationSlots` of them.
 *
 * Reading: the utility is defined per model (Eq. 3), so fitness is a vector, one mean
 * utility per model, and selection works model by model: a child's gene for model m comes
 * from the winner of a tournament of two on model m's fitness (uniform crossover with
 * per-gene selection), then mutates with probability `mutationRate` by one step of b (in
 * the grid 1, 2, 4, …, 128) and/or m_c (1…8). The `elite` best individuals (by mean
 * fitness) survive unchanged, and are re-measured: online fitness is noisy. The first
 * generation is drawn uniformly from the grid. All randomness comes from `rng` (an engine
 * stream), so a run is deterministic.
 *
 * Under Eq. 1's per-model slots (slot `eq1`, BCEdge §III-A2) decisions come whenever a
 * model's slot ends and only the due models take the individual's genes; the window is
 * then counted in reporting intervals (`ServingObservation.slot`; under the fixed slot one a
 * decision, as before), and a due model's slot utility counts for the individual in force
 * only when the model's previous action was that individual's gene.
 */
export function createGa(params: GaParams, rng: Rng): GaScheduler {
  if (!Number.isInteger(params.population) || params.population < 2) throw new RangeError(`GA population must be an integer ≥ 2, got ${params.population}`);
  if (!Number.isInteger(params.evaluationSlots) || params.evaluationSlots < 1) throw new RangeError(`GA evaluation slots must be an integer ≥ 1, got ${params.evaluationSlots}`);
  if (!Number.isInteger(params.warmupSlots) || params.warmupSlots < 0) throw new RangeError(`GA warm-up slots must be an integer ≥ 0, got ${params.warmupSlots}`);
  if (!(params.mutationRate >= 0 && params.mutationRate <= 1)) throw new RangeError(`GA mutation rate must be in [0, 1], got ${params.mutationRate}`);
  if (!Number.isInteger(params.elite) || params.elite < 0 || params.elite >= params.population) throw new RangeError(`GA elite must be an integer in [0, population), got ${params.elite}`);

  const slotsPerIndividual = params.warmupSlots + params.evaluationSlots;
  let population: Individual[] = [];
  let current = 0;
  let slotInWindow = 0;
  let sums = new Float64Array(0);
  let counts = new Float64Array(0);
  let generation = 0;
  let best: Individual | null = null;
  /** The reporting interval of the last decision. */
  let lastInterval = -1;
  /** Which installation of an individual is in force (one more at each switch), and per model the one its action came from. */
  let installation = 0;
  let appliedFrom = new Float64Array(0);

  const randomGene = (): Gene => ({ batch: rng.nextInt(BATCH_SIZES.length), instances: rng.nextInt(INSTANCE_COUNTS.length) });
  const toAction = (ind: Individual): ServingAction =>
    ind.genes.map((g) => ({ batchSize: BATCH_SIZES[g.batch]!, instances: INSTANCE_COUNTS[g.instances]! }));
  /** Mean over the models that had a utility (a model with nothing to do has none). */
  const meanFitness = (ind: Individual): number => {
    let sum = 0;
    let n = 0;
    for (const f of ind.fitness) {
      if (Number.isNaN(f)) continue;
      sum += f;
      n++;
    }
    return n > 0 ? sum / n : Number.NEGATIVE_INFINITY;
  };
  const fresh = (genes: readonly Gene[]): Individual => ({ genes, fitness: new Float64Array(genes.length).fill(Number.NaN) });
  /** Fitness of model m, with never-scored genes last. */
  const fitnessOf = (ind: Individual, m: number): number => {
    const f = ind.fitness[m]!;
    return Number.isNaN(f) ? Number.NEGATIVE_INFINITY : f;
  };

  /** The models that take this decision's action (all under the fixed slot) remember which installation it came from. */
  function install(observation: ServingObservation): ServingAction {
    const models = observation.models;
    for (let m = 0; m < models.length; m++) if (models[m]!.due !== false) appliedFrom[m] = installation;
    return toAction(population[current]!);
  }

  function startWindow(models: number): void {
    slotInWindow = 0;
    sums = new Float64Array(models);
    counts = new Float64Array(models);
  }

  function tournament(m: number): Individual {
    const a = population[rng.nextInt(population.length)]!;
    const b = population[rng.nextInt(population.length)]!;
    return fitnessOf(b, m) > fitnessOf(a, m) ? b : a;
  }

  function mutate(g: Gene): Gene {
    if (rng.nextFloat() >= params.mutationRate) return g;
    // One step along one or both axes, kept inside the grid.
    const step = (i: number, n: number): number => Math.min(n - 1, Math.max(0, i + (rng.nextFloat() < 0.5 ? -1 : 1)));
    const which = rng.nextInt(3);
    return {
      batch: which !== 1 ? step(g.batch, BATCH_SIZES.length) : g.batch,
      instances: which !== 0 ? step(g.instances, INSTANCE_COUNTS.length) : g.instances,
    };
  }

  function nextGeneration(models: number): void {
    const ranked = population.map((ind, i) => ({ ind, i, f: meanFitness(ind) })).sort((a, b) => b.f - a.f || a.i - b.i);
    const top = ranked[0]!.ind;
    if (best === null || meanFitness(top) >= meanFitness(best)) best = { genes: top.genes, fitness: top.fitness.slice() };
    const next: Individual[] = ranked.slice(0, params.elite).map(({ ind }) => fresh(ind.genes));
    while (next.length < params.population) {
      const genes: Gene[] = [];
      for (let m = 0; m < models; m++) genes.push(mutate(tournament(m).genes[m]!));
      next.push(fresh(genes));
    }
    population = next;
    generation++;
  }

  return {
    id: 'ga',
    // The population (fitness arrays copied, genes immutable), the window's sums, the best so far, the counters and the random stream.
    snapshot: () => ({
      population: population.map((ind) => ({ genes: ind.genes, fitness: ind.fitness.slice() })),
      best: best === null ? null : { genes: best.genes, fitness: best.fitness.slice() },
      sums: sums.slice(),
      counts: counts.slice(),
      appliedFrom: appliedFrom.slice(),
      scalars: Float64Array.of(current, slotInWindow, generation, lastInterval, installation),
      rng: rng.state(),
    }),
    restore(state: unknown) {
      const s = state as { population: Individual[]; best: Individual | null; sums: Float64Array; counts: Float64Array; appliedFrom: Float64Array; scalars: Float64Array; rng: Uint32Array };
      population = s.population.map((ind) => ({ genes: ind.genes, fitness: ind.fitness.slice() }));
      best = s.best === null ? null : { genes: s.best.genes, fitness: s.best.fitness.slice() };
      sums = s.sums.slice();
      counts = s.counts.slice();
      appliedFrom = s.appliedFrom.slice();
      [current, slotInWindow, generation, lastInterval, installation] = Array.from(s.scalars) as [number, number, number, number, number];
      rng.setState(s.rng);
    },
    get generation() {
      return generation;
    },
    get bestAction() {
      return best === null ? null : toAction(best);
    },
    get bestFitness() {
      return best === null ? Number.NaN : meanFitness(best);
    },
    decide(observation: ServingObservation): ServingAction {
      const models = observation.models.length;
      // Under the fixed slot (no model says whether it is due) every decision is a slot of the window.
      const perModelSlots = observation.models[0]?.due !== undefined;
      const advanced = !perModelSlots || observation.slot !== lastInterval;
      lastInterval = observation.slot;
      if (population.length === 0) {
        population = Array.from({ length: params.population }, () => fresh(Array.from({ length: models }, randomGene)));
        appliedFrom = new Float64Array(models);
        startWindow(models);
        return install(observation);
      }
      // The utility of the slot that just ended belongs to the individual in force (under
      // per-model slots, if the model's action was its gene).
      if (slotInWindow >= params.warmupSlots) {
        for (let m = 0; m < models; m++) {
          const o = observation.models[m]!;
          if (o.due === false || appliedFrom[m] !== installation) continue;
          const u = o.lastSlot?.utility;
          if (u !== null && u !== undefined) {
            sums[m]! += u;
            counts[m]!++;
          }
        }
      }
      if (!advanced) return install(observation);
      slotInWindow++;
      if (slotInWindow < slotsPerIndividual) return install(observation);
      const ind = population[current]!;
      for (let m = 0; m < models; m++) ind.fitness[m] = counts[m]! > 0 ? sums[m]! / counts[m]! : Number.NaN;
      current++;
      installation++;
      if (current === population.length) {
        nextGeneration(models);
        current = 0;
      }
      startWindow(models);
      return install(observation);
    },
  };
}
