/**
 * How long a download's object URL outlives the click, ms. Chrome reads it during `click()`;
 * Firefox and Safari may start reading after it returns, so it is not revoked at once.
 */
const REVOKE_AFTER_MS = 10_000;

/** Saves `blob` as `fileName` through a temporary `<a download>`; makes no request. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

/** Saves `text` as `fileName`, UTF-8, of type `mime` (e.g. 'text/csv', 'application/json'). */
export function downloadText(fileName: string, text: string, mime = 'text/plain'): void {
  const type = /;\s*charset=/i.test(mime) ? mime : `${mime};charset=utf-8`;
  downloadBlob(fileName, new Blob([text], { type }));
}

/** A file name made of `text` (lower case, dashes, at most 60 characters), or `fallback` when nothing is left. */
export function fileSlug(text: string, fallback = 'scenario'): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || fallback
  );
}
