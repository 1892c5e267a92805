import { useState } from 'react';
import type { ClaimRow } from '../../scenario/claimsReport';
import { parseClaimsReportJsonInSteps } from '../../scenario/claimsReportCheck';
import { createClaimsStore, type ClaimsStore, type ReportFetch } from '../../store/claimsStore';
import { registryComputer } from '../../store/claimsComputer';
import { createWebCellPool, pageWorkers } from '../../store/explorePool';
import { ClaimsView } from './ClaimsView';

/** Where the build ships the report the CLI computed (public/claims/report.json), on the page's own origin. */
export function reportUrl(): URL {
  return new URL('claims/report.json', document.baseURI);
}

/** Fetches and checks the shipped report: no file is "missing", a malformed one names its fields. */
export async function fetchShippedReport(): Promise<ReportFetch> {
  const url = reportUrl();
  const response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) return { kind: 'missing', message: `${url.pathname}: ${response.status} ${response.statusText}`.trim() };
  // Row by row, giving the main thread back between rows (each row's scenario is validated with its sweep).
  const checked = await parseClaimsReportJsonInSteps(await response.text(), () => new Promise((resolve) => setTimeout(resolve, 0)));
  return checked.ok ? { kind: 'report', report: checked.report } : { kind: 'invalid', errors: checked.errors };
}

/** This browser, for the provenance of a row computed here. */
function here() {
  const cores = navigator.hardwareConcurrency || 1;
  return {
    commit: typeof __LAB_COMMIT__ === 'string' ? __LAB_COMMIT__ : 'unknown',
    machine: `${navigator.userAgent}, ${cores} logical core${cores === 1 ? '' : 's'}, ${pageWorkers()} workers`,
    command: 'recomputed in the page (Claims view, Explore worker pool)',
  };
}

/** One Claims store per page: the report is fetched once, recomputed rows survive closing the view. */
let shared: ClaimsStore | null = null;
function claimsStore(): ClaimsStore {
  shared ??= createClaimsStore({ fetchReport: fetchShippedReport, computer: registryComputer, makePool: () => createWebCellPool(pageWorkers()), here });
  return shared;
}

export function ClaimsPage({ onOpen, onClose }: { readonly onOpen: (row: ClaimRow) => void; readonly onClose: () => void }) {
  const [store] = useState(claimsStore);
  return <ClaimsView store={store} onOpen={onOpen} onClose={onClose} confirm={(message) => window.confirm(message)} />;
}
