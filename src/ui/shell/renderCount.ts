import { useEffect, useRef } from 'react';

/**
 * Counts the renders of a lab's root component on `document.body`'s `data-renders-<id>`
 * (written after each render, in an effect): the serving lab's root must not render on every
 * frame (ARCHITECTURE §8), and the e2e test reads the count while it plays.
 */
export function useRenderCount(id: string): void {
  const count = useRef(0);
  useEffect(() => {
    count.current += 1;
    document.body.dataset[`renders${id[0]!.toUpperCase()}${id.slice(1)}`] = String(count.current);
  });
}
