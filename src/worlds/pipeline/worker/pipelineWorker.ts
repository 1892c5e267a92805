/// <reference lib="webworker" />
// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../../index';
/**
 * The pipeline world's worker: a thin comlink adapter over `PipelineSession` — the generic
 * calls (`liveWorker.ts`) and the pipeline's own (`pipelineApi.ts`).
 */
import { expose } from 'comlink';
import type { PipelineFrame } from './pipelineProtocol';
import { workerHost } from '../../../worker/liveWorker';
import { pipelineApi } from './pipelineApi';
import { PipelineSession } from './pipelineSession';

const frames = workerHost<PipelineFrame>();
const api = pipelineApi(new PipelineSession(frames.host), frames);

export type PipelineWorkerApi = typeof api;
expose(api);
