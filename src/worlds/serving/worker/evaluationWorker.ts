/// <reference lib="webworker" />
/**
 * An evaluation worker of the page's reference searches (ARCHITECTURE §3), started by the
 * search worker (oracleWorker.ts): a thin comlink adapter over `evaluationApi`.
 */
import { expose } from 'comlink';
import { evaluationApi } from './evaluationPool';

expose(evaluationApi());
