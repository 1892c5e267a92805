import { lazy, Suspense } from 'react';
import { afterWorlds } from '../../kit/worlds';

/** The presets of every world, loaded when the gallery is first opened (the first screen carries none of them). */
const PresetsList = lazy(() => afterWorlds(() => import('./PresetsList')).then((m) => ({ default: m.PresetsList })));

/** The share bar's presets gallery, the same in every lab. */
export function PresetsGallery({ onClose }: { readonly onClose: () => void }) {
  return (
    <Suspense fallback={<p className="loading">Opening the presets…</p>}>
      <PresetsList onClose={onClose} />
    </Suspense>
  );
}
