/// <reference lib="webworker" />
/**
 * The reference lanes' search worker (ARCHITECTURE §3): started by the serving worker
 * (`oracleWorkerPort.ts`), a thin comlink adapter over `oracleApi`, so that a search of many
 * runs of a trace keeps a core of its own and the serving worker's live run never waits on it.
 */
import { expose } from 'comlink';
import { oracleApi } from './oracleApi';

expose(oracleApi);
