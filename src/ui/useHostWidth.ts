import { useEffect, useRef, useState } from 'react';
import { observeWidth } from '../charts/runtime';

/** A host element's width in whole pixels (at least `min`), followed as it is resized: for charts drawn at the panel's width. */
export function useHostWidth(min: number, initial = 800): [React.RefObject<HTMLDivElement | null>, number] {
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = host.current;
    if (element === null) return;
    let shown = initial;
    const observer = observeWidth(
      element,
      () => shown,
      (w) => {
        shown = Math.max(min, w);
        setWidth(shown);
      },
    );
    return () => observer.disconnect();
  }, [min, initial]);
  return [host, width];
}
